// The SRCMap lab's live session in the registry ("srcmap"): its schema, operations, the
// "power" view and the factory. The behaviour: srcmap/lab/session.h.
#include <vector>

#include "registry/sessions.h"
#include "srcmap/lab/session.h"

namespace fawnlab {
namespace {

using srcmap::SrcmapSession;

std::vector<OpInfo> Ops() {
  return {
      {"run_to", "run the day's requests up to an hour of the day (forward only)",
       {{ParamSpec::Real("hour", 1, 0, 24, "h", "the hour of the evaluated day to run to (24: the end of the day)"), true}}},
      {"locate", "where a volume's byte lives now: its extent, the serving disk, the replicas, dirty or not, and "
                 "which disks hold its latest version",
       {{ParamSpec::Int("volume", 0, 0, 7, "", "the volume (D0-D7)"), true},
        {ParamSpec::Real("offset_mb", 0, 0, 1e7, "MB", "the byte's offset into the volume, in MB (10^6 bytes)"), true}}},
      {"load_trace", "replace the generated workload by an MSR Cambridge block trace (CSV: Timestamp, Hostname, "
                     "DiskNumber, Type, Offset, Size, ResponseTime); the day restarts on it",
       {{ParamSpec::String("csv", "", "the trace's lines; at most 8 volumes (host, disk)"), true},
        {ParamSpec::Real("history_h", 24, 0, 1e5, "h",
                         "the trace's first hours are the history the working sets come from; the next 24 h are the day"),
         true, "a number of hours > 0, inside the trace"}}},
  };
}

}  // namespace

void RegisterSrcmapSessions(std::vector<SessionInfo>* out) {
  SessionInfo s;
  s.id = "srcmap";
  s.lab = "srcmap";
  s.view = "";
  s.title = "SRCMap testbed";
  s.summary = "Eight disks serve eight volumes through SRCMap's virtualization layer over a virtual day: working-set "
              "replicas placed by Eq. 3.2, the active disks chosen each interval by Algorithm 1, the others spun "
              "down, paid for in spin-ups, sync I/O and read misses; or a baseline on the same disks.";
  s.noun = "the SRCMap day";
  s.params = SrcmapSession::Schema();
  s.live = SrcmapSession::LiveFields();
  s.script = true;
  s.ops = Ops();
  s.views = {{"power", "per elapsed minute: watts, spinning disks, load, the Eq. 3.1 ideal; and the spin-ups (hour, disk, cause: 0 planned, 1 read miss, 2 other I/O)", {}}};
  s.create = SrcmapSession::New;
  out->push_back(std::move(s));
}

}  // namespace fawnlab
