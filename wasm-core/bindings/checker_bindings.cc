// checkHistory(text) for the Node build: the FAWN-KV linearizability checker
// (fawnkv/checker.h) over a history recorded outside the simulator, in the text format of
// fawnkv/history_text.h; answers JSON ({"ok":true,…,"violations",…} or {"ok":false,"error"}).
// The real cluster's integration tests use it, so they judge a run of real processes by the
// same checker as the simulation's.
#include <emscripten/bind.h>

#include <string>

#include "fawnkv/history_text.h"

namespace {

std::string CheckHistory(std::string text) { return fawnlab::fawnkv::CheckHistoryText(text); }

}  // namespace

EMSCRIPTEN_BINDINGS(fawnlab_checker) { emscripten::function("checkHistory", &CheckHistory); }
