#include "fawnkv/checker.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include <gtest/gtest.h>

#include "sim/rng.h"
#include "sim/time.h"

namespace fawnlab::fawnkv {
namespace {

using Kind = HistoryOp::Kind;
constexpr int64_t kNever = -1;  // a not-ok put's completion

uint64_t TestSeed() {
  const char* env = std::getenv("FAWNLAB_TEST_SEED");
  return env ? std::strtoull(env, nullptr, 10) : 5151;
}

// Hand-written histories, times in whole (or fractional) seconds.
class Builder {
 public:
  explicit Builder(std::string key = "k") : key_(std::move(key)) {}
  Builder& Key(std::string key) { key_ = std::move(key); return *this; }
  // An acknowledged put, or a not-ok one with complete = kNever.
  Builder& Put(std::string value, double invoke_s, double complete_s) {
    return Op(Kind::kPut, std::move(value), true, invoke_s, complete_s, complete_s != kNever);
  }
  Builder& Get(std::string value, double invoke_s, double complete_s) {
    return Op(Kind::kGet, std::move(value), true, invoke_s, complete_s, true);
  }
  // A delete (not ok when complete = kNever).
  Builder& Delete(double invoke_s, double complete_s) {
    return Op(Kind::kDelete, "", false, invoke_s, complete_s, complete_s != kNever);
  }
  Builder& GetNotFound(double invoke_s, double complete_s) {
    return Op(Kind::kGet, "", false, invoke_s, complete_s, true);
  }
  Builder& FailedGet(std::string value, double invoke_s) {
    return Op(Kind::kGet, std::move(value), true, invoke_s, kNever, false);
  }
  CheckReport Check(size_t max_details = 10) const { return CheckLinearizable(h_, max_details); }
  const History& history() const { return h_; }

 private:
  static int64_t Ns(double s) { return s == kNever ? -1 : static_cast<int64_t>(s * 1e9 + 0.5); }
  Builder& Op(Kind kind, std::string value, bool found, double invoke_s, double complete_s,
              bool ok) {
    h_.Add(HistoryOp{kind, key_, std::move(value), found, Ns(invoke_s), Ns(complete_s), ok});
    return *this;
  }
  std::string key_;
  History h_;
};

std::string AllDetails(const CheckReport& r) {
  std::string out;
  for (const std::string& d : r.details) out += d + "\n";
  return out;
}

void ExpectLinearizable(const CheckReport& r) {
  EXPECT_EQ(r.violations, 0u) << AllDetails(r);
  EXPECT_EQ(r.undetermined_keys, 0u) << AllDetails(r);
  EXPECT_TRUE(r.details.empty()) << AllDetails(r);
}

// One violation whose detail names every string in `words`.
void ExpectViolation(const CheckReport& r, const std::vector<std::string>& words) {
  ASSERT_EQ(r.violations, 1u) << AllDetails(r);
  ASSERT_EQ(r.details.size(), 1u);
  for (const std::string& w : words) {
    EXPECT_NE(r.details[0].find(w), std::string::npos) << w << " in " << r.details[0];
  }
}

TEST(CheckerTest, EmptyHistory) {
  CheckReport r = CheckLinearizable(History());
  EXPECT_EQ(r.keys, 0u);
  EXPECT_EQ(r.operations, 0u);
  ExpectLinearizable(r);
}

TEST(CheckerTest, SequentialHistoryIsLinearizable) {
  Builder b;
  b.GetNotFound(0, 1).Put("v1", 2, 3).Get("v1", 4, 5).Put("v2", 6, 7).Get("v2", 8, 9);
  b.Key("other").GetNotFound(0, 1).FailedGet("junk", 2);
  CheckReport r = b.Check();
  EXPECT_EQ(r.keys, 2u);
  EXPECT_EQ(r.operations, 6u);  // the failed get is ignored
  ExpectLinearizable(r);
}

TEST(CheckerTest, GetConcurrentWithPutMayReturnEitherValue) {
  ExpectLinearizable(Builder().Put("v1", 0, 1).Put("v2", 2, 6).Get("v1", 3, 4).Check());
  ExpectLinearizable(Builder().Put("v1", 0, 1).Put("v2", 2, 6).Get("v2", 3, 4).Check());
  // Both, in the order the put allows: old value first, then the new one.
  ExpectLinearizable(
      Builder().Put("v1", 0, 1).Put("v2", 2, 6).Get("v1", 3, 4).Get("v2", 4.5, 5).Check());
  ExpectLinearizable(Builder().Put("v1", 0, 10).GetNotFound(1, 2).Get("v1", 3, 4).Check());
}

TEST(CheckerTest, NewValueThenOldValueIsViolation) {
  // v2 was read (completing at 4s) before a get that started at 4.5s returned v1.
  ExpectViolation(
      Builder().Put("v1", 0, 1).Put("v2", 2, 6).Get("v2", 3, 4).Get("v1", 4.5, 5.5).Check(),
      {"key \"k\"", "\"v1\"", "\"v2\"", "4.5s"});
}

TEST(CheckerTest, StaleReadAfterAcknowledgedPutIsViolation) {
  CheckReport r = Builder().Put("v1", 0, 1).Put("v2", 2, 3).Get("v1", 4, 5).Check();
  ExpectViolation(r, {"key \"k\"", "stale read of \"v1\"", "put \"v2\" [2s, 3s]",
                      "get [4s, 5s] -> \"v1\"", "put \"v1\" [0s, 1s]"});
}

TEST(CheckerTest, NeverWrittenValueIsViolation) {
  ExpectViolation(Builder().Put("v1", 0, 1).Get("v9", 2, 3).Check(),
                  {"key \"k\"", "get [2s, 3s] -> \"v9\"", "never written"});
  ExpectViolation(Builder().Get("v1", 0, 1).Check(), {"never written"});
}

TEST(CheckerTest, GetCompletingBeforeItsPutStartsIsViolation) {
  ExpectViolation(Builder().Get("v1", 0, 1).Put("v1", 2, 3).Check(),
                  {"get [0s, 1s] -> \"v1\" completed before put \"v1\" [2s, 3s]"});
  // Ending at the instant the put starts is concurrent.
  ExpectLinearizable(Builder().Get("v1", 0, 2).Put("v1", 2, 3).Check());
}

TEST(CheckerTest, ReadOfNotAcknowledgedPutIsLinearizable) {
  ExpectLinearizable(Builder()
                         .Put("v1", 0, 1)
                         .Put("v2", 2, kNever)
                         .Get("v1", 3, 4)
                         .Get("v2", 50, 51)
                         .Get("v2", 60, 61)
                         .Check());
}

TEST(CheckerTest, UnreadNotAcknowledgedPutIsLinearizable) {
  ExpectLinearizable(
      Builder().Put("v1", 0, 1).Put("v2", 2, kNever).Get("v1", 3, 4).Get("v1", 50, 51).Check());
  ExpectLinearizable(Builder().Put("v1", 0, kNever).GetNotFound(5, 6).Check());
}

TEST(CheckerTest, NotAcknowledgedPutCannotBeUndone) {
  // v2 took effect (it was read), so v1 cannot come back later.
  ExpectViolation(
      Builder().Put("v1", 0, 1).Put("v2", 2, kNever).Get("v2", 3, 4).Get("v1", 5, 6).Check(),
      {"key \"k\"", "\"v1\"", "\"v2\"", "put \"v2\" [2s, not acked]", "get [5s, 6s] -> \"v1\""});
  // The same for a put never acknowledged that is read and then "not found".
  ExpectViolation(Builder().Put("v1", 0, kNever).Get("v1", 3, 4).GetNotFound(5, 6).Check(),
                  {"stale read of not found", "the start"});
}

TEST(CheckerTest, NotFoundAfterAcknowledgedPutIsViolation) {
  ExpectViolation(Builder().Put("v1", 0, 1).GetNotFound(2, 3).Check(),
                  {"key \"k\"", "not found", "put \"v1\" [0s, 1s]", "get [2s, 3s] -> not found"});
  // Concurrent with the put, or invoked at the very instant the put completed: fine.
  ExpectLinearizable(Builder().Put("v1", 0, 1).GetNotFound(0.5, 3).Check());
  ExpectLinearizable(Builder().Put("v1", 0, 1).GetNotFound(1, 3).Check());
  ExpectViolation(Builder().Put("v1", 0, 1).GetNotFound(1.000000001, 3).Check(),
                  {"1.000000001s"});
}

TEST(CheckerTest, TwoValuesThatMustEachHoldAcrossTheOtherAreViolation) {
  // Both puts are concurrent with everything; the reads alternate v1, v2, v1, v2 in real time,
  // so v1 must hold over (2s, 5s) and v2 over (v2_end, 7s).
  auto check = [](double v2_end) {
    return Builder().Put("v1", 0, 10).Put("v2", 0, 10).Get("v1", 1, 2).Get("v2", 3, v2_end)
        .Get("v1", 5, 6).Get("v2", 7, 8).Check();
  };
  ExpectViolation(check(4), {"\"v1\" and \"v2\" overlap", "get [7s, 8s] -> \"v2\""});
  // Spans that only touch are fine: v1 holds until 5s, v2 from 5s.
  ExpectLinearizable(check(5));
}

TEST(CheckerTest, ViolationsAreCountedPerAnomaly) {
  // v1 must hold over (1s, 10s); v2 over (2s, 5s) overlaps it (one); put v3 [7s, 8s] lies in
  // v1's span but not in v2's, the last one to start (two); a get of a never-written value and
  // one ending before its put starts (three, four).
  CheckReport r = Builder()
                      .Put("v1", 0, 1)
                      .Get("v1", 10, 11)
                      .Put("v2", 1.5, 2)
                      .Get("v2", 5, 6)
                      .Put("v3", 7, 8)
                      .Get("v7", 12, 13)
                      .Get("v4", 12, 13)
                      .Put("v4", 14, 15)
                      .Check();
  EXPECT_EQ(r.violations, 4u) << AllDetails(r);
  EXPECT_EQ(r.details.size(), 4u);
}

TEST(CheckerTest, RepeatedPutValueIsUndetermined) {
  CheckReport r = Builder().Put("v1", 0, 1).Put("v1", 2, 3).Key("b").Put("x", 0, 1).Check();
  EXPECT_EQ(r.keys, 2u);
  EXPECT_EQ(r.violations, 0u);
  EXPECT_EQ(r.undetermined_keys, 1u);
  ASSERT_EQ(r.details.size(), 1u);
  EXPECT_NE(r.details[0].find("two puts wrote \"v1\""), std::string::npos) << r.details[0];
}

TEST(CheckerTest, KeysAreIndependentAndDetailsAreCapped) {
  Builder b;
  for (int i = 0; i < 20; ++i) {
    b.Key("bad" + std::to_string(i)).Put("v1", 0, 1).GetNotFound(2, 3);
    b.Key("good" + std::to_string(i)).Put("v1", 0, 1).Get("v1", 2, 3);
  }
  CheckReport r = b.Check(3);
  EXPECT_EQ(r.keys, 40u);
  EXPECT_EQ(r.violations, 20u);
  ASSERT_EQ(r.details.size(), 3u);
  // Keys in byte order: bad0, bad1, bad10.
  EXPECT_EQ(r.details[0].rfind("key \"bad0\":", 0), 0u) << r.details[0];
  EXPECT_EQ(r.details[2].rfind("key \"bad10\":", 0), 0u) << r.details[2];
  EXPECT_EQ(b.Check(0).details.size(), 0u);
}

TEST(CheckerTest, InvokeAndCompleteRecordOpsAsTheyHappen) {
  History h;
  size_t put = h.Invoke(Kind::kPut, "k", "v1", 0);
  size_t lost = h.Invoke(Kind::kPut, "k", "v2", 5);            // never completes
  size_t get = h.Invoke(Kind::kGet, "k", "ignored", 10);
  size_t failed = h.Invoke(Kind::kGet, "k", "", 11);
  size_t pending = h.Invoke(Kind::kGet, "k", "", 12);          // never completes
  h.Complete(put, true, false, "ignored", 2);
  h.Complete(failed, false, false, "", -1);
  h.Complete(get, true, true, "v1", 20);
  EXPECT_EQ(h.size(), 5u);
  EXPECT_EQ(h.op(put).value, "v1");
  EXPECT_EQ(h.op(put).complete_ns, 2);
  EXPECT_FALSE(h.op(lost).ok);
  EXPECT_EQ(h.op(lost).complete_ns, -1);
  EXPECT_TRUE(h.op(get).found);
  EXPECT_EQ(h.op(get).value, "v1");
  EXPECT_FALSE(h.op(pending).ok);
  CheckReport r = CheckLinearizable(h);
  EXPECT_EQ(r.operations, 3u);  // two puts and the answered get
  ExpectLinearizable(r);
  // The get then "sees" the lost put; a later get returning v1 is then a violation.
  History h2 = h;
  h2.Complete(pending, true, true, "v2", 30);
  size_t again = h2.Invoke(Kind::kGet, "k", "", 31);
  h2.Complete(again, true, true, "v1", 32);
  ExpectViolation(CheckLinearizable(h2), {"\"v1\"", "\"v2\""});
}

// ---------------------------------------------------------------------------------------------
// Random histories from a simulated atomic register: each op takes effect at one instant in
// its [invoke, complete] interval (a not-ok put at some instant after its invoke, or never).

struct Shape {
  int keys;
  int ops_per_key;
  double put_share;
  int64_t horizon_ns;       // invokes in [0, horizon]
  int64_t max_duration_ns;  // complete - invoke in [0, max]
  double failed_put_share = 0.15;
  double failed_get_share = 0.05;
};

History AtomicRegisterHistory(sim::Rng& rng, const Shape& shape) {
  struct Event {
    int64_t at;
    uint64_t tie;
    size_t index;
  };
  History h;
  std::vector<Event> effects;
  for (int k = 0; k < shape.keys; ++k) {
    const std::string key = "key" + std::to_string(k);
    for (int i = 0; i < shape.ops_per_key; ++i) {
      const bool put = rng.Bernoulli(shape.put_share);
      const int64_t invoke = rng.UniformInt(0, shape.horizon_ns);
      const int64_t complete = invoke + rng.UniformInt(0, shape.max_duration_ns);
      const int64_t at = rng.UniformInt(invoke, complete);
      HistoryOp op{put ? Kind::kPut : Kind::kGet, key, put ? "v" + std::to_string(i) : "", false,
                   invoke, complete, true};
      if (put && rng.Bernoulli(shape.failed_put_share)) {
        op.ok = false;
        op.complete_ns = -1;
        // Takes effect late, or not at all.
        if (rng.Bernoulli(0.5)) {
          const int64_t late = rng.UniformInt(0, 4 * shape.max_duration_ns);
          effects.push_back({at + late, rng.NextU64(), h.size()});
        }
        h.Add(op);
        continue;
      }
      if (!put && rng.Bernoulli(shape.failed_get_share)) {
        op.ok = false;
        op.found = rng.Bernoulli(0.5);
        op.value = "garbage";
      } else {
        effects.push_back({at, rng.NextU64(), h.size()});
      }
      h.Add(op);
    }
  }
  std::sort(effects.begin(), effects.end(), [](const Event& a, const Event& b) {
    return a.at != b.at ? a.at < b.at : a.tie < b.tie;
  });
  History out;
  std::vector<HistoryOp> ops = h.ops();
  std::map<std::string, const std::string*> current;  // key -> value in place (absent: none)
  for (const Event& e : effects) {
    HistoryOp& op = ops[e.index];
    if (op.kind == Kind::kPut) {
      current[op.key] = &op.value;
    } else if (auto it = current.find(op.key); it != current.end()) {
      op.found = true;
      op.value = *it->second;
    }
  }
  for (HistoryOp& op : ops) out.Add(std::move(op));
  return out;
}

// Finds an answered get G, and acked puts Pj, Pm of G's key with Pj before Pm before G in real
// time. Rewriting G to return Pj's value must then be a violation. Returns false if none.
bool FindCertainStaleRead(const History& h, sim::Rng& rng, size_t* get, size_t* older_put) {
  const auto& ops = h.ops();
  std::vector<std::pair<size_t, size_t>> found;
  for (size_t g = 0; g < ops.size(); ++g) {
    if (ops[g].kind != Kind::kGet || !ops[g].ok) continue;
    for (size_t m = 0; m < ops.size(); ++m) {
      const HistoryOp& pm = ops[m];
      if (pm.kind != Kind::kPut || !pm.ok || pm.key != ops[g].key) continue;
      if (pm.complete_ns >= ops[g].invoke_ns) continue;
      for (size_t j = 0; j < ops.size(); ++j) {
        const HistoryOp& pj = ops[j];
        if (pj.kind == Kind::kPut && pj.ok && pj.key == pm.key && pj.complete_ns < pm.invoke_ns) {
          found.emplace_back(g, j);
        }
      }
    }
  }
  if (found.empty()) return false;
  std::tie(*get, *older_put) = found[rng.UniformU64(found.size())];
  return true;
}

TEST(CheckerRandomTest, AtomicRegisterHistoriesPassAndAStaleReadIsCaught) {
  const uint64_t base = TestSeed();
  int mutated = 0;
  constexpr int kSeeds = 300;
  for (int i = 0; i < kSeeds; ++i) {
    const uint64_t seed = base + i;
    SCOPED_TRACE("seed=" + std::to_string(seed) + " (FAWNLAB_TEST_SEED=" + std::to_string(base) +
                 ")");
    sim::Rng rng(seed);
    const int keys = 1 + static_cast<int>(rng.UniformU64(4));
    const int ops_per_key = 5 + static_cast<int>(rng.UniformU64(60));
    const int64_t horizon_ns = 50 + rng.UniformInt(0, 1000);
    const Shape shape{keys, ops_per_key, 0.4, horizon_ns, rng.UniformInt(0, 200)};
    History h = AtomicRegisterHistory(rng, shape);
    CheckReport r = CheckLinearizable(h);
    EXPECT_EQ(r.keys, static_cast<uint64_t>(shape.keys));
    ExpectLinearizable(r);

    size_t get = 0, older = 0;
    if (!FindCertainStaleRead(h, rng, &get, &older)) continue;
    ++mutated;
    std::vector<HistoryOp> ops = h.ops();
    ops[get].found = true;
    ops[get].value = ops[older].value;
    History bad;
    for (HistoryOp& op : ops) bad.Add(std::move(op));
    CheckReport rb = CheckLinearizable(bad);
    ASSERT_GE(rb.violations, 1u) << "get #" << get << " rewritten to " << ops[older].value;
    ASSERT_FALSE(rb.details.empty());
    const std::string details = AllDetails(rb);
    EXPECT_NE(details.find("\"" + h.op(older).value + "\""), std::string::npos) << details;
    EXPECT_NE(details.find("key \"" + h.op(get).key + "\""), std::string::npos) << details;
  }
  // Most seeds offer such a get: the mutation half is not vacuous.
  EXPECT_GE(mutated, kSeeds * 3 / 4);
}

// ---------------------------------------------------------------------------------------------
// Against a brute-force reference (exhaustive search over orders, memoised) on small histories.

bool BruteForceLinearizable(const std::vector<HistoryOp>& ops) {
  const size_t n = ops.size();
  auto ok = [&](size_t i) { return ops[i].ok && ops[i].complete_ns >= ops[i].invoke_ns; };
  uint32_t mandatory = 0;
  for (size_t i = 0; i < n; ++i) {
    if (ok(i)) mandatory |= 1u << i;
  }
  std::set<std::pair<uint32_t, int>> dead;  // (linearized set, put index in place or -1)
  std::function<bool(uint32_t, int)> search = [&](uint32_t done, int current) {
    if ((done & mandatory) == mandatory) return true;
    if (dead.count({done, current})) return false;
    for (size_t o = 0; o < n; ++o) {
      if (done & (1u << o)) continue;
      bool minimal = true;  // no pending mandatory op completed before o was invoked
      for (size_t p = 0; p < n && minimal; ++p) {
        const bool pending = p != o && (mandatory & ~done & (1u << p));
        if (pending && ops[p].complete_ns < ops[o].invoke_ns) minimal = false;
      }
      if (!minimal) continue;
      if (ops[o].kind == Kind::kPut) {
        if (search(done | (1u << o), static_cast<int>(o))) return true;
      } else if (current < 0 ? !ops[o].found
                             : (ops[o].found && ops[o].value == ops[current].value)) {
        if (search(done | (1u << o), current)) return true;
      }
    }
    dead.insert({done, current});
    return false;
  };
  return search(0, -1);
}

std::string Dump(const std::vector<HistoryOp>& ops) {
  std::string out;
  for (const HistoryOp& op : ops) {
    const bool put = op.kind == Kind::kPut;
    out += std::string(put ? "put " : "get ") + (put || op.found ? op.value : "-") + " [" +
           std::to_string(op.invoke_ns) + ", " + std::to_string(op.complete_ns) +
           "] ok=" + std::to_string(op.ok) + "\n";
  }
  return out;
}

TEST(CheckerRandomTest, AgreesWithBruteForceOnSmallHistories) {
  const uint64_t base = TestSeed();
  int linearizable = 0, not_linearizable = 0;
  for (int i = 0; i < 4000; ++i) {
    const uint64_t seed = base * 7919 + i;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    sim::Rng rng(seed);
    std::vector<HistoryOp> ops;
    const int n = 1 + static_cast<int>(rng.UniformU64(10));
    int puts = 0;
    for (int j = 0; j < n; ++j) {
      HistoryOp op;
      op.key = "k";
      op.invoke_ns = rng.UniformInt(0, 6);
      op.complete_ns = op.invoke_ns + rng.UniformInt(0, 4);
      op.ok = rng.Bernoulli(0.85);
      if (rng.Bernoulli(0.45)) {
        op.kind = Kind::kPut;
        op.value = "v" + std::to_string(puts++);
        if (!op.ok && rng.Bernoulli(0.5)) op.complete_ns = -1;
      } else {
        op.kind = Kind::kGet;
        op.found = rng.Bernoulli(0.8);
        // Mostly values some put writes; sometimes one nobody writes.
        if (op.found) op.value = "v" + std::to_string(rng.UniformU64(4));
      }
      ops.push_back(op);
    }
    History h;
    for (const HistoryOp& op : ops) h.Add(op);
    const bool expected = BruteForceLinearizable(ops);
    CheckReport r = CheckLinearizable(h);
    (expected ? linearizable : not_linearizable)++;
    ASSERT_EQ(r.violations == 0, expected) << Dump(ops) << AllDetails(r);
  }
  EXPECT_GT(linearizable, 800);
  EXPECT_GT(not_linearizable, 800);
}

// ---------------------------------------------------------------------------------------------
// Scale: these must stay fast (gtest prints each test's time).

TEST(CheckerScaleTest, ThousandKeysOfTwoHundredOps) {
  sim::Rng rng(TestSeed());
  CheckReport r = CheckLinearizable(
      AtomicRegisterHistory(rng, Shape{1000, 200, 0.4, 100 * sim::kMs, 2 * sim::kMs}));
  EXPECT_EQ(r.keys, 1000u);
  EXPECT_GT(r.operations, 190000u);  // all but the failed gets
  ExpectLinearizable(r);
}

TEST(CheckerScaleTest, TwentyThousandOpsOnOneKey) {
  sim::Rng rng(TestSeed() + 1);
  // Mostly gets, puts spaced over 10 s.
  CheckReport r = CheckLinearizable(
      AtomicRegisterHistory(rng, Shape{1, 20000, 0.05, 10 * sim::kSec, 5 * sim::kMs}));
  EXPECT_EQ(r.keys, 1u);
  EXPECT_GT(r.operations, 19000u);
  ExpectLinearizable(r);
  // Half puts, every op concurrent with every other (all invoked at 0).
  ExpectLinearizable(
      CheckLinearizable(AtomicRegisterHistory(rng, Shape{1, 20000, 0.5, 0, sim::kSec})));
}

TEST(CheckerDeletes, ADeleteThenNotFoundIsLinearizable) {
  Builder b;
  b.Put("v1", 0, 1).Get("v1", 2, 3).Delete(4, 5).GetNotFound(6, 7).Put("v2", 8, 9).Get("v2", 10, 11);
  b.Delete(12, 13).Delete(14, 15).GetNotFound(16, 17);
  CheckReport r = b.Check();
  EXPECT_EQ(r.violations, 0u) << AllDetails(r);
  EXPECT_EQ(r.undetermined_keys, 0u) << AllDetails(r);
}

TEST(CheckerDeletes, NotFoundConcurrentWithADeleteOrBeforeAnyPutIsFine) {
  Builder b;
  b.GetNotFound(0, 1).Put("v1", 2, 3).Delete(4, 10).GetNotFound(5, 6).Get("v1", 7, 8);
  b.Delete(20, kNever).GetNotFound(30, 31);  // a delete never acknowledged may still take effect
  CheckReport r = b.Check();
  EXPECT_EQ(r.violations, 0u) << AllDetails(r);
}

TEST(CheckerDeletes, AValueReadAfterItsDeleteCompletedIsAViolation) {
  Builder b;
  b.Put("v1", 0, 1).Delete(2, 3).Get("v1", 4, 5);
  CheckReport r = b.Check();
  EXPECT_EQ(r.violations, 1u) << AllDetails(r);
  ASSERT_FALSE(r.details.empty());
  EXPECT_NE(r.details[0].find("delete [2s, 3s]"), std::string::npos) << r.details[0];
}

TEST(CheckerDeletes, NotFoundAfterAnAcknowledgedPutWithNoDeleteBetweenIsAViolation) {
  Builder b;
  b.Put("v1", 0, 1).Delete(2, 3).Put("v2", 4, 5).GetNotFound(6, 7);  // the delete is older than v2
  Builder c("j");
  c.Put("v1", 0, 1).GetNotFound(2, 3);  // no delete at all: the exact check
  Builder d("h");
  d.Put("v1", 0, 1).Delete(6, 7).GetNotFound(2, 3);  // the only delete began after the get ended
  for (Builder* x : {&b, &c, &d}) {
    CheckReport r = x->Check();
    EXPECT_EQ(r.violations, 1u) << AllDetails(r);
  }
}

}  // namespace
}  // namespace fawnlab::fawnkv
