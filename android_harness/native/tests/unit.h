/*
 * A minimal test harness for the runner's C++ parts: TEST(name) registers a case, CHECK*
 * record a failure (file, line, expression) and end the case. `edgecl-units` runs every case, or
 * the ones named on its command line; tools.cpp adds the helper commands the pytest side drives.
 */
#pragma once

#include <cstdio>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace edgecl_test {

struct Case {
  const char* name;
  std::function<void()> fn;
};

inline std::vector<Case>& registry() {
  static std::vector<Case> cases;
  return cases;
}

/// Set by CHECK on failure; the runner prints it.
inline std::string& failure() {
  static std::string f;
  return f;
}

struct Register {
  Register(const char* name, std::function<void()> fn) { registry().push_back({name, std::move(fn)}); }
};

template <typename A, typename B>
std::string show(const A& a, const B& b) {
  std::ostringstream s;
  s << a << " vs " << b;
  return s.str();
}

}  // namespace edgecl_test

#define TEST(name)                                                         \
  static void test_##name();                                               \
  static ::edgecl_test::Register register_##name(#name, test_##name);      \
  static void test_##name()

#define CHECK(cond)                                                                                   \
  do {                                                                                                \
    if (!(cond)) {                                                                                    \
      ::edgecl_test::failure() = std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " #cond; \
      return;                                                                                         \
    }                                                                                                 \
  } while (0)

#define CHECK_EQ(a, b)                                                                                     \
  do {                                                                                                     \
    if (!((a) == (b))) {                                                                                   \
      ::edgecl_test::failure() = std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " #a " == " #b \
                                 " (" + ::edgecl_test::show((a), (b)) + ")";                               \
      return;                                                                                              \
    }                                                                                                      \
  } while (0)

#define CHECK_OK(expr)                                                                                  \
  do {                                                                                                  \
    const ::edgecl::Error check_err_ = (expr);                                                          \
    if (!check_err_.ok()) {                                                                             \
      ::edgecl_test::failure() = std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " #expr ": " + \
                                 check_err_.message();                                                  \
      return;                                                                                           \
    }                                                                                                   \
  } while (0)
