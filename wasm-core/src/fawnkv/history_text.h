// History text: a client history recorded outside the simulator (the real cluster's tests and
// tools) handed to the linearizability checker (checker.h). One operation per line, seven
// tab-separated fields:
//
//   <put|get|del> TAB <key> TAB <value> TAB <found 0|1> TAB <invoke ns> TAB <complete ns | -1> TAB <ok 0|1> LF
//
// Keys and values are bytes without TAB or LF (the recorder chooses them so). A put's value is
// what it wrote; a get's what it returned (empty when not found); a delete's is empty. Times
// are integers in any one clock's ns. Errors name the line and the field. CheckHistoryText
// parses and checks, answering JSON: {"ok":true,"keys","operations","violations",
// "undetermined_keys","details":[…]} or {"ok":false,"error":"…"}.
#ifndef FAWNLAB_FAWNKV_HISTORY_TEXT_H_
#define FAWNLAB_FAWNKV_HISTORY_TEXT_H_

#include <string>
#include <string_view>

#include "base/status.h"
#include "fawnkv/checker.h"

namespace fawnlab::fawnkv {

StatusOr<History> ParseHistoryText(std::string_view text);
std::string CheckReportJson(const CheckReport& r);
std::string CheckHistoryText(std::string_view text, size_t max_details = 10);

}  // namespace fawnlab::fawnkv

#endif  // FAWNLAB_FAWNKV_HISTORY_TEXT_H_
