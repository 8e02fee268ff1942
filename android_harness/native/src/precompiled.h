/*
 * What most of edgecl's own sources include, compiled once per build and optimisation level (a GCC
 * precompiled header; the Makefile makes every own source include it first). It only saves
 * compile time: no source relies on it, each includes what it uses. (No include guard: it is only
 * ever the compiler's first, forced include.)
 */

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/kernel/kernel_includes.h>
#include <nlohmann/json.hpp>
