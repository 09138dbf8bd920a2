//===- plugins.cpp - Finding and loading device plugins -------------------===//
//
// A plugin is loaded with RTLD_LOCAL and never unloaded: a model may keep threads, and programs
// open and close devices (cudaDeviceReset) many times.
//
//===----------------------------------------------------------------------===//

#include "warpforge/isa/plugins.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <map>
#include <mutex>

namespace wf::isa {
namespace fs = std::filesystem;

std::vector<std::string> pluginSearchPath() {
  std::vector<std::string> dirs;
  if (const char *env = std::getenv("WARPFORGE_DEVICE_PATH"); env && *env) {
    std::string list = env;
    for (size_t start = 0; start <= list.size();) {
      size_t end = list.find(':', start);
      if (end == std::string::npos)
        end = list.size();
      if (end > start)
        dirs.push_back(list.substr(start, end - start));
      start = end + 1;
    }
  }
  // Where this code was loaded from: libcudart.so in lib/, or a program in bin/ that links the
  // runtime statically.
  Dl_info self{};
  if (dladdr(reinterpret_cast<void *>(&pluginSearchPath), &self) && self.dli_fname) {
    std::error_code ec;
    fs::path where = fs::canonical(fs::path(self.dli_fname), ec);
    if (!ec) {
      dirs.push_back((where.parent_path() / "warpforge" / "devices").string());
      dirs.push_back(
          (where.parent_path().parent_path() / "lib" / "warpforge" / "devices").string());
      dirs.push_back(where.parent_path().string());
    }
  }
  return dirs;
}

static std::string fileNameOf(const std::string &name) {
  return WF_DEVICE_PLUGIN_PREFIX + name + WF_DEVICE_PLUGIN_SUFFIX;
}

std::vector<PluginListing> installedPlugins() {
  std::vector<PluginListing> found;
  const std::string prefix = WF_DEVICE_PLUGIN_PREFIX, suffix = WF_DEVICE_PLUGIN_SUFFIX;
  for (const std::string &dir : pluginSearchPath()) {
    std::error_code ec;
    for (const fs::directory_entry &entry : fs::directory_iterator(dir, ec)) {
      std::string file = entry.path().filename().string();
      if (file.size() <= prefix.size() + suffix.size() || file.rfind(prefix, 0) != 0 ||
          file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0)
        continue;
      std::string name = file.substr(prefix.size(), file.size() - prefix.size() - suffix.size());
      bool seen = std::any_of(found.begin(), found.end(),
                              [&](const PluginListing &p) { return p.name == name; });
      if (!seen)
        found.push_back({name, entry.path().string()});
    }
  }
  std::sort(found.begin(), found.end(),
            [](const PluginListing &a, const PluginListing &b) { return a.name < b.name; });
  return found;
}

static std::string installedSummary() {
  std::string names;
  for (const PluginListing &p : installedPlugins())
    names += (names.empty() ? "" : ", ") + p.name;
  std::string dirs;
  for (const std::string &d : pluginSearchPath())
    dirs += (dirs.empty() ? "" : ":") + d;
  return "installed: " + (names.empty() ? std::string("none") : names) + "; searched " +
         (dirs.empty() ? std::string("nothing") : dirs) + " (WARPFORGE_DEVICE_PATH adds folders)";
}

namespace {
struct Loaded {
  const wf_device_plugin *plugin;
  void *handle;
};
std::mutex loadMutex;
std::map<std::string, Loaded> loaded;
} // namespace

const wf_device_plugin *loadPlugin(const std::string &name, std::string &error) {
  std::lock_guard lock(loadMutex);
  if (auto it = loaded.find(name); it != loaded.end())
    return it->second.plugin;

  bool plausible = !name.empty() && name.find('/') == std::string::npos;
  std::string path;
  for (const PluginListing &p : plausible ? installedPlugins() : std::vector<PluginListing>{})
    if (p.name == name)
      path = p.path;
  if (path.empty()) {
    error = "no device plugin '" + name + "' (" + fileNameOf(name) + "); " + installedSummary();
    return nullptr;
  }
  void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = ::dlerror();
    error = "cannot load device plugin " + path + ": " + (why ? why : "unknown error");
    return nullptr;
  }
  auto entry = reinterpret_cast<wf_device_plugin_entry_fn>(::dlsym(handle, WF_DEVICE_PLUGIN_ENTRY));
  const wf_device_plugin *plugin = entry ? entry() : nullptr;
  if (!plugin) {
    error = path + " is not a Warpforge device plugin (no " WF_DEVICE_PLUGIN_ENTRY ")";
    ::dlclose(handle);
    return nullptr;
  }
  if (plugin->abi_version != WF_DEVICE_PLUGIN_ABI_VERSION || !plugin->ops || !plugin->create) {
    error = path + " implements plugin interface version " + std::to_string(plugin->abi_version) +
            "; this runtime needs " + std::to_string(WF_DEVICE_PLUGIN_ABI_VERSION);
    ::dlclose(handle);
    return nullptr;
  }
  loaded[name] = Loaded{plugin, handle};
  return plugin;
}

void *pluginSymbol(const std::string &name, const char *symbol, std::string &error) {
  if (!loadPlugin(name, error))
    return nullptr;
  std::lock_guard lock(loadMutex);
  void *found = ::dlsym(loaded.at(name).handle, symbol);
  if (!found)
    error = "device plugin '" + name + "' (" + fileNameOf(name) + ") does not export " + symbol;
  return found;
}

} // namespace wf::isa
