// Device printf: formats the records the device wrote into the FIFO with CUDA's rules
// (docs/compiler.md: integers 4 bytes unless l/ll/z/j/t; %f %e %g %a %p %s 8 bytes; each at its
// natural alignment in the argument buffer).
#include "warpforge/runtime/device.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace wf::rt {

std::string readDeviceString(Device &device, uint64_t address, size_t limit = 65536) {
  std::string s;
  if (!address)
    return s;
  char chunk[256];
  while (s.size() < limit) {
    if (!device.read(address + s.size(), chunk, sizeof chunk)) {
      // Near the end of memory: byte by byte.
      char c;
      while (s.size() < limit && device.read(address + s.size(), &c, 1) && c)
        s.push_back(c);
      return s;
    }
    const void *nul = std::memchr(chunk, 0, sizeof chunk);
    if (nul) {
      s.append(chunk, static_cast<const char *>(nul) - chunk);
      return s;
    }
    s.append(chunk, sizeof chunk);
  }
  return s;
}

std::string formatPrintf(Device &device, const std::string &format, const uint8_t *args,
                         size_t argBytes) {
  std::string out;
  size_t off = 0;
  auto take = [&](size_t size, uint64_t &value) -> bool {
    off = (off + size - 1) / size * size;
    if (off + size > argBytes)
      return false;
    value = 0;
    std::memcpy(&value, args + off, size);
    off += size;
    return true;
  };
  char buf[512];
  for (size_t i = 0; i < format.size();) {
    char c = format[i];
    if (c != '%') {
      out.push_back(c);
      ++i;
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '%') {
      out.push_back('%');
      i += 2;
      continue;
    }
    size_t start = i++;
    std::string spec = "%";
    while (i < format.size() && std::strchr("-+ #0", format[i]))
      spec.push_back(format[i++]);
    // Width and precision; '*' takes an int argument.
    for (int part = 0; part < 2; ++part) {
      if (part == 1) {
        if (i >= format.size() || format[i] != '.')
          break;
        spec.push_back(format[i++]);
      }
      if (i < format.size() && format[i] == '*') {
        uint64_t v = 0;
        take(4, v);
        spec += std::to_string(int32_t(uint32_t(v)));
        ++i;
      } else {
        while (i < format.size() && format[i] >= '0' && format[i] <= '9')
          spec.push_back(format[i++]);
      }
    }
    int longs = 0;
    bool halfs = false;
    while (i < format.size() && std::strchr("hlLzjt", format[i])) {
      char l = format[i++];
      if (l == 'h')
        halfs = true;
      else
        ++longs;
    }
    if (i >= format.size()) {
      out.append(format, start, std::string::npos);
      break;
    }
    char conv = format[i++];
    uint64_t v = 0;
    switch (conv) {
    case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c': {
      bool wide = longs > 0 && conv != 'c';
      if (!take(wide ? 8 : 4, v)) { out += "<missing>"; continue; }
      std::string s = spec + (wide ? "ll" : halfs ? "" : "") + conv;
      bool sign = conv == 'd' || conv == 'i';
      if (wide)
        std::snprintf(buf, sizeof buf, s.c_str(), sign ? (long long)v : (unsigned long long)v);
      else if (sign)
        std::snprintf(buf, sizeof buf, s.c_str(), int32_t(uint32_t(v)));
      else
        std::snprintf(buf, sizeof buf, s.c_str(), uint32_t(v));
      out += buf;
      break;
    }
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
      if (!take(8, v)) { out += "<missing>"; continue; }
      double d;
      std::memcpy(&d, &v, 8);
      std::snprintf(buf, sizeof buf, (spec + conv).c_str(), d);
      out += buf;
      break;
    }
    case 'p': {
      if (!take(8, v)) { out += "<missing>"; continue; }
      std::snprintf(buf, sizeof buf, (spec + conv).c_str(), reinterpret_cast<void *>(v));
      out += buf;
      break;
    }
    case 's': {
      if (!take(8, v)) { out += "<missing>"; continue; }
      std::string str = v ? readDeviceString(device, v) : "(null)";
      int n = std::snprintf(nullptr, 0, (spec + 's').c_str(), str.c_str());
      std::string tmp(size_t(n) + 1, '\0');
      std::snprintf(tmp.data(), tmp.size(), (spec + 's').c_str(), str.c_str());
      tmp.resize(size_t(n));
      out += tmp;
      break;
    }
    default:
      out.append(format, start, i - start);
    }
  }
  return out;
}

} // namespace wf::rt
