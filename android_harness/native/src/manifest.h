/*
 * An export folder's manifest.json (format edgecl-manifest/1, written by pipeline/export/manifest.py,
 * read by android_harness/device/backends/manifest.py): its files by role, the training signature,
 * the optimizer and the BatchNorm momenta.
 */
#pragma once

#include <map>
#include <string>

#include "result.h"
#include "sha256.h"
#include "signature.h"

namespace edgecl {

/// The optimizer the export was made for (torch.optim names and defaults).
struct OptimizerSpec {
  std::string name;  // "sgd" | "adamw"
  double lr = 0.0;
  double momentum = 0.0;
  double weight_decay = 0.0;
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
};

struct Manifest {
  std::string folder;  // the export folder the manifest was read from
  std::string runtime;  // "executorch" | "ort"
  std::map<std::string, std::string> files;  // role ("training", "eval", "initial_state") -> relative path
  std::map<std::string, FileDigest> digests;  // role -> the sha256 and size the manifest lists
  Signature signature;
  OptimizerSpec optimizer;
  std::map<std::string, double> norm_momentum;  // BatchNorm layer -> momentum (default 0.1)

  /// folder/<path of the file with `role`>, or an Error naming the manifest.
  Result<std::string> file(const std::string& role) const;
  /// The file with `role` has the size and sha256 the manifest lists; else an Error naming the
  /// file, the expected and the actual values (a corrupted or edited file never reaches the runtime).
  Error verify(const std::string& role) const;
};

/// Reads `folder/manifest.json`. Errors name the file and the field; the files' sizes and sha256
/// are checked by Manifest::verify.
Result<Manifest> read_manifest(const std::string& folder);

}  // namespace edgecl
