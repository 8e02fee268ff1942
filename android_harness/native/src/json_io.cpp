#include "json_io.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace edgecl {
namespace {

template <typename J>
std::string scalar_text(const J& v) {
  if (v.is_number_float()) {
    const double d = v.template get<double>();
    if (std::isnan(d)) return "NaN";
    if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  }
  return v.dump(-1, ' ', /*ensure_ascii=*/true, J::error_handler_t::replace);
}

template <typename J>
void write(const J& v, JsonStyle style, int depth, std::string& out) {
  const bool indent = style == JsonStyle::kIndent1;
  const char* item_sep = style == JsonStyle::kPython ? ", " : ",";
  const char* key_sep = style == JsonStyle::kCompact ? ":" : ": ";
  if (!v.is_object() && !v.is_array()) {
    out += scalar_text(v);
    return;
  }
  const bool obj = v.is_object();
  out.push_back(obj ? '{' : '[');
  if (v.empty()) {
    out.push_back(obj ? '}' : ']');
    return;
  }
  bool first = true;
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!first) out += item_sep;
    first = false;
    if (indent) out += "\n" + std::string(static_cast<size_t>(depth + 1), ' ');
    if (obj) {
      out += scalar_text(J(it.key()));
      out += key_sep;
    }
    write(it.value(), style, depth + 1, out);
  }
  if (indent) out += "\n" + std::string(static_cast<size_t>(depth), ' ');
  out.push_back(obj ? '}' : ']');
}

template <typename J>
Result<J> parse(const std::string& text, const std::string& where) {
  J value = J::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) return Error(ErrorCode::InvalidExternalData, where + ": not valid JSON");
  return value;
}

}  // namespace

Result<Json> parse_json_text(const std::string& text, const std::string& where) { return parse<Json>(text, where); }

Result<OrderedJson> parse_ordered_json(const std::string& text, const std::string& where) {
  return parse<OrderedJson>(text, where);
}

std::string to_json_text(const OrderedJson& value, JsonStyle style) {
  std::string out;
  write(value, style, 0, out);
  return out;
}

std::string to_json_text(const Json& value, JsonStyle style) {
  std::string out;
  write(value, style, 0, out);
  return out;
}

double round_digits(double x, int digits) {
  if (!std::isfinite(x)) return x;
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return std::strtod(buf, nullptr);
}

}  // namespace edgecl
