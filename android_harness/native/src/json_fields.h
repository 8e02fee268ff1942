/*
 * Typed reads of JSON fields that fail with an Error naming the file and the field path
 * ("models/mlp/manifest.json: signature.inputs[1].dtype: expected a string"), never an exception.
 */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "result.h"

namespace edgecl {

using Json = nlohmann::json;

/// Parses the JSON file at `path` (Error names the file, and the byte where parsing stopped).
Result<Json> read_json_file(const std::string& path);

/// `where` is "<file>: <field path>"; each call reads `obj[key]` and names `where.key` on failure.
Error get_string(const Json& obj, const std::string& key, const std::string& where, std::string* out);
Error get_int(const Json& obj, const std::string& key, const std::string& where, int64_t* out);
Error get_number(const Json& obj, const std::string& key, const std::string& where, double* out);
Error get_strings(const Json& obj, const std::string& key, const std::string& where, std::vector<std::string>* out);
Error get_ints(const Json& obj, const std::string& key, const std::string& where, std::vector<int64_t>* out);
/// obj[key] must be an array (of objects, typically); `*out` points into obj.
Error get_array(const Json& obj, const std::string& key, const std::string& where, const Json** out);

/// A missing optional key is fine (the output keeps its default); a present one must have the type.
bool has(const Json& obj, const std::string& key);

}  // namespace edgecl
