/*
 * JSON the way the Python side writes it (json_fields.h reads it): ordered objects (Python dicts
 * keep insertion order), floats as Python's repr, NaN/Infinity as Python spells them, and the three
 * layouts Python's json module produces in edgecl's files (compact lines for events and the trace,
 * json.dumps' default, json.dump(indent=1) for result.json).
 */
#pragma once

#include <string>

#include "json_fields.h"
#include "result.h"

namespace edgecl {

/// Objects keep their key order, as Python dicts do (for everything the runner writes).
using OrderedJson = nlohmann::ordered_json;

/// How a value is laid out (Python's json module equivalents).
enum class JsonStyle {
  kCompact,  // json.dumps(v, separators=(",", ":"))
  kPython,   // json.dumps(v): ", " and ": "
  kIndent1,  // json.dump(v, indent=1)
};

/// Parse `text` (`where` names its file in the error).
Result<Json> parse_json_text(const std::string& text, const std::string& where);
/// Parse `text` keeping key order (state files the runner reads back and writes again).
Result<OrderedJson> parse_ordered_json(const std::string& text, const std::string& where);
/// Serialise `value` in `style`.
std::string to_json_text(const OrderedJson& value, JsonStyle style);
std::string to_json_text(const Json& value, JsonStyle style);
/// Python's round(x, digits): correctly rounded through the decimal form.
double round_digits(double x, int digits);

}  // namespace edgecl
