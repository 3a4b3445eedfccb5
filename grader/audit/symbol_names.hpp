// Symbol names as the audit compares them: demangled for people, and reduced to a "key" for the
// allowlist's patterns: the qualified name without return type, parameters, template arguments
// or ABI tags, e.g. `std::basic_ofstream<char>::open(char const*, std::_Ios_Openmode)` ->
// `std::basic_ofstream::open`, `void std::sort<int*>(int*, int*)` -> `std::sort`.
#pragma once
#include <string>
#include <string_view>

namespace gpulab::audit {

// The name without a symbol version (`memcpy@GLIBC_2.14`, `x@@V1` -> `memcpy`, `x`).
std::string_view unversioned(std::string_view name);
// The demangled name; the name itself when it is not a C++ mangled name.
std::string demangled(const std::string& name);
// The key of a demangled name. "vtable for X", "typeinfo for X", "guard variable for X" and the
// like are keyed as X: referring to std::ofstream's vtable is constructing one.
std::string symbol_key(const std::string& demangled_name);

// Whether `text` matches `pattern`, where `*` matches any run of characters (`::` included) and
// `[A-Z]` one character of a class.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace gpulab::audit
