// The Vector I/O lab's sessions in the registry (registry/sessions.h): the networked back-end
// ("vector.net", view "net", the default) and the Linux block layer of Ch. 6 ("vector.block",
// view "block"). The page picks one by its config's "view".
#include <vector>

#include "registry/sessions.h"

namespace fawnlab {

void RegisterVectorNetSession(std::vector<SessionInfo>* out);
void RegisterVectorBlockSession(std::vector<SessionInfo>* out);

void RegisterVectorSessions(std::vector<SessionInfo>* out) {
  RegisterVectorNetSession(out);
  RegisterVectorBlockSession(out);
}

}  // namespace fawnlab
