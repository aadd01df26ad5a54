// The Vector I/O lab's block session (none registered yet).
#include <vector>

#include "registry/sessions.h"

namespace fawnlab {

void RegisterVectorBlockSession(std::vector<SessionInfo>* out) { (void)out; }

}  // namespace fawnlab
