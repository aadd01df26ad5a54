// A live session's profile choice carries the profiles' display names ("labels", one per
// choice, from device/profiles.cc) beside its choices, for the web's controls; experiments'
// schemas carry none (their JSON stays as it was).
#include <string>

#include <gtest/gtest.h>

#include "base/json_reader.h"
#include "base/params.h"
#include "device/profiles.h"
#include "registry/experiments.h"
#include "registry/sessions.h"

namespace fawnlab {
namespace {

const JsonValue* Param(const JsonValue& session, const std::string& name) {
  for (const JsonValue& p : session.Find("params")->array_items()) {
    if (p.Find("name")->string_value() == name) return &p;
  }
  return nullptr;
}

TEST(ChoiceLabelsTest, ProfileChoicesOfSessionsCarryTheProfilesDisplayNames) {
  auto v = ParseJson(DescribeSessionsJson());
  ASSERT_TRUE(v.ok()) << v.status().message();
  int seen = 0;
  for (const JsonValue& s : v.value().array_items()) {
    const std::string id = s.Find("id")->string_value();
    if (id != "devices.flash" && id != "devices.disk" && id != "fawnds") continue;
    SCOPED_TRACE(id);
    ++seen;
    const JsonValue* p = Param(s, "profile");
    ASSERT_NE(p, nullptr);
    const auto& choices = p->Find("choices")->array_items();
    ASSERT_NE(p->Find("labels"), nullptr);
    const auto& labels = p->Find("labels")->array_items();
    ASSERT_EQ(labels.size(), choices.size());
    for (size_t i = 0; i < choices.size(); ++i) {
      const std::string& name = choices[i].string_value();
      const std::string& label = labels[i].string_value();
      EXPECT_FALSE(label.empty()) << name;
      EXPECT_NE(label, name) << "every profile has a display name of its own";
      EXPECT_EQ(label, device::ProfileLabels({name})[0]);
    }
  }
  EXPECT_EQ(seen, 3);
}

TEST(ChoiceLabelsTest, TheLabelsFollowTheProfilesAndAChoiceWithoutThemHasNone) {
  EXPECT_EQ(device::ProfileLabels({"intel-x25m", "disk-7200", "nvm-4ch"}),
            (std::vector<std::string>{"Intel X25-M (MLC SSD)", "7,200 rpm desktop disk", "NVM, 4 channels (PCIe)"}));
  EXPECT_EQ(device::ProfileLabels({"no-such-device"}), std::vector<std::string>{"no-such-device"});
  for (const std::string& name : device::ProfileNames()) EXPECT_NE(device::ProfileLabels({name})[0], name);

  JsonWriter plain, labelled;
  const ParamSpec spec = ParamSpec::Choice("x", "a", {"a", "b"}, "help");
  WriteParamSpecJson(spec, &plain);
  WriteParamSpecJson(spec.WithLabels({"A", "B"}), &labelled);
  EXPECT_EQ(plain.str().find("labels"), std::string::npos);
  EXPECT_NE(labelled.str().find(R"("choices": ["a", "b"],)" "\n" R"(  "labels": ["A", "B"],)"), std::string::npos)
      << labelled.str();
}

TEST(ChoiceLabelsTest, ExperimentsSchemasCarryNoLabels) {
  EXPECT_EQ(ListExperimentsJson().find("\"labels\""), std::string::npos);
}

}  // namespace
}  // namespace fawnlab
