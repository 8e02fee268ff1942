/*
 * Copyright (c) Meta Platforms, Inc. and affiliates.
 * All rights reserved.
 *
 * This source code is licensed under the BSD-style license found in the
 * LICENSE file in the root directory of this source tree.
 */

#pragma once
// TODO(T157709949) remove this file
#if !defined(USE_ATEN_LIB) && !defined(TORCH_API)
#define TORCH_API
#endif
