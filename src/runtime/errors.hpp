// The C++ API's errors: std::invalid_argument whose message starts with the function's name.
#pragma once

#include <stdexcept>
#include <string>

namespace ridge::runtime {

// Throws std::invalid_argument("<function>: <message>").
[[noreturn]] inline void invalid_argument(const char* function, const std::string& message) {
  throw std::invalid_argument(std::string(function) + ": " + message);
}

}  // namespace ridge::runtime
