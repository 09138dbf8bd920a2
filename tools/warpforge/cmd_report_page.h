// The HTML page of `warpforge report`: style and drawing script, with the inputs embedded.
#pragma once

#include <string>

namespace wf::driver {

/// The whole page. `title` is HTML-escaped; the JSON texts are safe inside <script> ("</" escaped).
std::string reportPage(const std::string &title, const std::string &statsJson,
                       const std::string &timelineJson);

} // namespace wf::driver
