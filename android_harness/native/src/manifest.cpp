#include "manifest.h"

namespace edgecl {
namespace {

constexpr const char* kFormat = "edgecl-manifest/1";

}  // namespace

Result<std::string> Manifest::file(const std::string& role) const {
  auto it = files.find(role);
  if (it == files.end()) {
    return Error(ErrorCode::NotFound, folder + "/manifest.json: lists no '" + role + "' file");
  }
  return folder + "/" + it->second;
}

Error Manifest::verify(const std::string& role) const {
  auto path = file(role);
  if (!path.ok()) return path.error();
  const FileDigest& want = digests.at(role);
  auto got = sha256_file(*path);
  if (!got.ok()) return got.error();
  if (got->size != want.size || got->sha256 != want.sha256) {
    return Error(ErrorCode::InvalidProgram, *path + ": corrupted or edited: size " + std::to_string(got->size) +
                 " bytes, sha256 " + got->sha256 + "; " + folder + "/manifest.json lists size " +
                 std::to_string(want.size) + ", sha256 " + want.sha256);
  }
  return Error();
}

Result<Manifest> read_manifest(const std::string& folder) {
  const std::string path = folder + "/manifest.json";
  auto parsed = read_json_file(path);
  if (!parsed.ok()) return parsed.error();
  const Json& doc = parsed.get();
  const std::string where = path + ": manifest";
  Manifest m;
  m.folder = folder;
  std::string format;
  EDGECL_RETURN_IF_ERROR(get_string(doc, "format", where, &format));
  if (format != kFormat) {
    return Error(ErrorCode::NotSupported, path + ": format '" + format + "', expected '" + kFormat + "'");
  }
  EDGECL_RETURN_IF_ERROR(get_string(doc, "runtime", where, &m.runtime));
  const Json* files = nullptr;
  EDGECL_RETURN_IF_ERROR(get_array(doc, "files", where, &files));
  for (size_t i = 0; i < files->size(); ++i) {
    const std::string at = where + ".files[" + std::to_string(i) + "]";
    std::string role, rel;
    EDGECL_RETURN_IF_ERROR(get_string((*files)[i], "role", at, &role));
    EDGECL_RETURN_IF_ERROR(get_string((*files)[i], "path", at, &rel));
    if (rel.empty() || rel[0] == '/' || rel.find("..") != std::string::npos) {
      return Error(ErrorCode::InvalidArgument, at + ".path: '" + rel + "' must stay inside the export folder");
    }
    m.files[role] = rel;
    FileDigest& d = m.digests[role];
    EDGECL_RETURN_IF_ERROR(get_string((*files)[i], "sha256", at, &d.sha256));
    EDGECL_RETURN_IF_ERROR(get_int((*files)[i], "size", at, &d.size));
  }
  if (!has(doc, "signature")) {
    return Error(ErrorCode::InvalidArgument, where + ".signature: missing");
  }
  auto sig = parse_signature(doc["signature"], path + ": signature");
  if (!sig.ok()) return sig.error();
  m.signature = std::move(sig.get());
  if (!has(doc, "optimizer")) {
    return Error(ErrorCode::InvalidArgument, where + ".optimizer: missing");
  }
  const Json& opt = doc["optimizer"];
  const std::string owhere = where + ".optimizer";
  EDGECL_RETURN_IF_ERROR(get_string(opt, "name", owhere, &m.optimizer.name));
  EDGECL_RETURN_IF_ERROR(get_number(opt, "lr", owhere, &m.optimizer.lr));
  if (has(opt, "momentum")) EDGECL_RETURN_IF_ERROR(get_number(opt, "momentum", owhere, &m.optimizer.momentum));
  if (has(opt, "weight_decay")) EDGECL_RETURN_IF_ERROR(get_number(opt, "weight_decay", owhere, &m.optimizer.weight_decay));
  if (has(opt, "eps")) EDGECL_RETURN_IF_ERROR(get_number(opt, "eps", owhere, &m.optimizer.eps));
  if (has(opt, "betas")) {
    const Json& b = opt["betas"];
    if (!b.is_array() || b.size() != 2 || !b[0].is_number() || !b[1].is_number()) {
      return Error(ErrorCode::InvalidArgument, owhere + ".betas: expected two numbers");
    }
    m.optimizer.beta1 = b[0].get<double>();
    m.optimizer.beta2 = b[1].get<double>();
  }
  if (has(doc, "norm_momentum")) {
    const Json& nm = doc["norm_momentum"];
    if (!nm.is_object()) return Error(ErrorCode::InvalidArgument, where + ".norm_momentum: expected an object");
    for (auto it = nm.begin(); it != nm.end(); ++it) {
      if (!it.value().is_number()) {
        return Error(ErrorCode::InvalidArgument, where + ".norm_momentum." + it.key() + ": expected a number");
      }
      m.norm_momentum[it.key()] = it.value().get<double>();
    }
  }
  return m;
}

}  // namespace edgecl
