/*
 * edgecl-units' helper commands (unit_tools.cpp): they run one C++ part of the runner on inputs
 * tests/test_native_units.py made with the Python counterpart, and print or write the result.
 */
#pragma once

#include <string>
#include <vector>

namespace edgecl_tools {

/// Run helper `cmd` with its arguments; -1 when `cmd` is not a helper.
int run_tool(const std::string& cmd, const std::vector<std::string>& rest);

}  // namespace edgecl_tools
