// The CONA lab's live session ("cona"): its schema, operations and views.
#include <vector>

#include "registry/sessions.h"

namespace fawnlab {

void RegisterConaSessions(std::vector<SessionInfo>* out) { (void)out; }

}  // namespace fawnlab
