#include "json_io.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <system_error>

namespace edgecl {
namespace {

/// The digits and decimal exponent of `text` written as "d.ddde<exp>" (to_chars' scientific form).
void split_e(const char* text, std::string* digits, int* exp) {
  digits->clear();
  const char* p = text;
  for (; *p != 'e'; ++p) {
    if (*p >= '0' && *p <= '9') digits->push_back(*p);
  }
  *exp = std::atoi(p + 1);
}

/// Python's repr of a finite double: the shortest digit string that reads back as `d` (of those,
/// the nearest to `d`: std::to_chars' shortest form, which is what Python's dtoa mode 0 gives), laid
/// out in fixed notation for decimal exponents -4..15 and as "d.ddde+XX" otherwise. Every event's
/// times go through here: to_chars is ~0.1 us a value where a printf/strtod digit search was ~9 us.
std::string python_float_repr(double d) {
  if (d == 0.0) return std::signbit(d) ? "-0.0" : "0.0";
  char buf[64];
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf - 1, std::fabs(d), std::chars_format::scientific);
  *r.ptr = '\0';
  std::string digits;
  int exp = 0;
  split_e(buf, &digits, &exp);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string out = d < 0 ? "-" : "";
  const int n = static_cast<int>(digits.size()), decpt = exp + 1;
  if (exp >= -4 && exp < 16) {
    if (decpt <= 0) return out + "0." + std::string(static_cast<size_t>(-decpt), '0') + digits;
    if (decpt >= n) return out + digits + std::string(static_cast<size_t>(decpt - n), '0') + ".0";
    return out + digits.substr(0, static_cast<size_t>(decpt)) + "." + digits.substr(static_cast<size_t>(decpt));
  }
  char e[8];
  std::snprintf(e, sizeof e, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
  return out + digits.substr(0, 1) + (n > 1 ? "." + digits.substr(1) : "") + e;
}

/// Whether dump(ensure_ascii) writes `s` as it is between quotes: printable ASCII but '"' and '\\'.
bool plain_ascii(const std::string& s) {
  for (const char c : s) {
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') return false;
  }
  return true;
}

/// One scalar as dump(-1, ' ', ensure_ascii) writes it, floats as Python's repr. Keys, plain
/// strings, integers, booleans and null are written here: dump() builds a serializer (a shared
/// output adapter, the locale's separators) per call, which made up most of an event's cost.
template <typename J>
std::string scalar_text(const J& v) {
  if (v.is_number_float()) {
    const double d = v.template get<double>();
    if (std::isnan(d)) return "NaN";
    if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
    return python_float_repr(d);
  }
  if (v.is_number_unsigned()) return std::to_string(v.template get<uint64_t>());
  if (v.is_number_integer()) return std::to_string(v.template get<int64_t>());
  if (v.is_boolean()) return v.template get<bool>() ? "true" : "false";
  if (v.is_null()) return "null";
  if (v.is_string()) {
    const auto& s = v.template get_ref<const std::string&>();
    if (plain_ascii(s)) return "\"" + s + "\"";
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
  // to_chars with a precision is printf's %.*f and from_chars is strtod (both exact), without
  // their locale and multi-precision machinery.
  char buf[512];
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::fixed, digits);
  if (r.ec != std::errc()) {
    std::snprintf(buf, sizeof buf, "%.*f", digits, x);
    return std::strtod(buf, nullptr);
  }
  double out = 0.0;
  std::from_chars(buf, r.ptr, out);
  return out;
}

}  // namespace edgecl
