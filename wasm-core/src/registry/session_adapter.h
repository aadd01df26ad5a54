// Adapted<T>: a session class with its own Create(json, seed) behind the LabSession contract.
// A bridge while the sessions move onto LabSession: the registry checks configs, patches,
// operations and view arguments against the schema, then hands them to T as JSON.
#ifndef FAWNLAB_REGISTRY_SESSION_ADAPTER_H_
#define FAWNLAB_REGISTRY_SESSION_ADAPTER_H_

#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "base/json_writer.h"
#include "registry/sessions.h"

namespace fawnlab {

template <typename T>
struct AdaptHooks {
  std::function<StatusOr<std::string>(T&, const JsonValue&)> op;
  std::function<StatusOr<ColumnSet>(T&, const std::string&, const ParamValues&)> view;
  std::function<uint64_t(T&)> version;
  std::function<int(const T&)> busy;
};

template <typename T>
class Adapted : public LabSession {
 public:
  Adapted(std::unique_ptr<T> s, AdaptHooks<T> hooks) : s_(std::move(s)), hooks_(std::move(hooks)) {}
  uint64_t Advance(sim::SimDuration dt_ns, uint64_t max_events) override { return s_->Advance(dt_ns, max_events); }
  bool Step() override { return s_->Step(); }
  std::string SnapshotJson() override { return s_->SnapshotJson(); }
  uint64_t version() override { return hooks_.version ? hooks_.version(*s_) : 0; }
  int Busy() const override { return hooks_.busy ? hooks_.busy(*s_) : 0; }
  T& session() { return *s_; }

 protected:
  StatusOr<std::string> RunOp(const std::string& name, const ParamValues& args, const JsonValue& op) override {
    if (!hooks_.op) return LabSession::RunOp(name, args, op);
    return hooks_.op(*s_, op);
  }
  Status Reconfigured(const ParamValues&, const ParamValues& patch) override {
    JsonWriter w;
    patch.WriteJson(&w);
    return s_->Reconfigure(w.str());
  }
  StatusOr<ColumnSet> View(const std::string& name, const ParamValues& args) override {
    if (!hooks_.view) return LabSession::View(name, args);
    return hooks_.view(*s_, name, args);
  }

 private:
  std::unique_ptr<T> s_;
  AdaptHooks<T> hooks_;
};

// A factory making T through T::Create(config as JSON, seed).
template <typename T>
SessionFactory AdaptFactory(AdaptHooks<T> hooks) {
  return [hooks](const ParamValues& config, uint64_t seed) -> StatusOr<std::unique_ptr<LabSession>> {
    JsonWriter w;
    config.WriteJson(&w);
    auto s = T::Create(w.str(), seed);
    if (!s.ok()) return s.status();
    return std::unique_ptr<LabSession>(new Adapted<T>(std::move(s).value(), hooks));
  };
}

}  // namespace fawnlab

#endif  // FAWNLAB_REGISTRY_SESSION_ADAPTER_H_
