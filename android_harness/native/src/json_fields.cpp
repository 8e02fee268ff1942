#include "json_fields.h"

#include <fstream>
#include <sstream>

namespace edgecl {
namespace {

Error wrong(const std::string& where, const std::string& key, const char* expected) {
  return Error(ErrorCode::InvalidArgument, where + "." + key + ": expected " + expected);
}

Result<const Json*> member(const Json& obj, const std::string& key, const std::string& where) {
  if (!obj.is_object()) {
    return Error(ErrorCode::InvalidArgument, where + ": expected an object");
  }
  auto it = obj.find(key);
  if (it == obj.end()) {
    return Error(ErrorCode::InvalidArgument, where + "." + key + ": missing");
  }
  return &*it;
}

/// obj[key] as a list of T, every element passing `is_t`; otherwise "expected <what>".
template <typename T, typename Check>
Error get_list(const Json& obj, const std::string& key, const std::string& where, Check is_t, const char* what,
               std::vector<T>* out) {
  auto m = member(obj, key, where);
  if (!m.ok()) return m.error();
  const Json& a = *m.get();
  if (!a.is_array()) return wrong(where, key, what);
  out->clear();
  for (const Json& v : a) {
    if (!is_t(v)) return wrong(where, key, what);
    out->push_back(v.get<T>());
  }
  return Error();
}

}  // namespace

Result<Json> read_json_file(const std::string& path) {
  std::ifstream file(path);
  if (!file) {
    return Error(ErrorCode::NotFound, path + ": cannot open");
  }
  std::stringstream text;
  text << file.rdbuf();
  Json value = Json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) {
    return Error(ErrorCode::InvalidArgument, path + ": not valid JSON");
  }
  return value;
}

bool has(const Json& obj, const std::string& key) { return obj.is_object() && obj.contains(key); }

Error get_string(const Json& obj, const std::string& key, const std::string& where, std::string* out) {
  auto m = member(obj, key, where);
  if (!m.ok()) return m.error();
  if (!m.get()->is_string()) return wrong(where, key, "a string");
  *out = m.get()->get<std::string>();
  return Error();
}

Error get_int(const Json& obj, const std::string& key, const std::string& where, int64_t* out) {
  auto m = member(obj, key, where);
  if (!m.ok()) return m.error();
  if (!m.get()->is_number_integer()) return wrong(where, key, "an integer");
  *out = m.get()->get<int64_t>();
  return Error();
}

Error get_number(const Json& obj, const std::string& key, const std::string& where, double* out) {
  auto m = member(obj, key, where);
  if (!m.ok()) return m.error();
  if (!m.get()->is_number()) return wrong(where, key, "a number");
  *out = m.get()->get<double>();
  return Error();
}

Error get_strings(const Json& obj, const std::string& key, const std::string& where, std::vector<std::string>* out) {
  return get_list(obj, key, where, [](const Json& v) { return v.is_string(); }, "a list of strings", out);
}

Error get_ints(const Json& obj, const std::string& key, const std::string& where, std::vector<int64_t>* out) {
  return get_list(obj, key, where, [](const Json& v) { return v.is_number_integer(); }, "a list of integers", out);
}

Error get_array(const Json& obj, const std::string& key, const std::string& where, const Json** out) {
  auto m = member(obj, key, where);
  if (!m.ok()) return m.error();
  if (!m.get()->is_array()) return wrong(where, key, "a list");
  *out = m.get();
  return Error();
}

}  // namespace edgecl
