#include "ycsb/generator.h"

#include <cmath>
#include <cstdio>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "ycsb/keys.h"

namespace fawnlab::ycsb {
namespace {

TEST(YcsbWorkload, CoreWorkloadsAreYcsbs) {
  const auto& all = CoreWorkloads();
  ASSERT_EQ(all.size(), 6u);
  const char* ids = "abcdef";
  for (size_t i = 0; i < all.size(); ++i) {
    const Workload& w = all[i];
    EXPECT_EQ(w.id, std::string(1, ids[i]));
    EXPECT_NEAR(w.read + w.update + w.insert + w.scan + w.rmw, 1.0, 1e-12) << w.id;
  }
  EXPECT_EQ(all[0].read, 0.5);
  EXPECT_EQ(all[0].update, 0.5);
  EXPECT_EQ(all[1].read, 0.95);
  EXPECT_EQ(all[1].update, 0.05);
  EXPECT_EQ(all[2].read, 1.0);
  EXPECT_EQ(all[3].insert, 0.05);
  EXPECT_EQ(all[3].dist, Distribution::kLatest);
  EXPECT_EQ(all[4].scan, 0.95);
  EXPECT_EQ(all[4].max_scan, 100);
  EXPECT_EQ(all[5].rmw, 0.5);
  for (const Workload& w : all) {
    if (w.id != "d") {
      EXPECT_EQ(w.dist, Distribution::kZipfian) << w.id;
    }
  }
}

TEST(YcsbWorkload, FindNamesTheBadIdAndTheKnownOnes) {
  ASSERT_TRUE(FindWorkload("A").ok());
  EXPECT_EQ(FindWorkload("A").value().id, "a");
  auto bad = FindWorkload("g");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'g'"), std::string::npos) << bad.status().message();
  EXPECT_NE(bad.status().message().find("a, b, c, d, e, f"), std::string::npos) << bad.status().message();
  EXPECT_FALSE(FindWorkload("").ok());
}

TEST(YcsbGenerator, MixProportionsWithinTolerance) {
  const uint64_t seed = 21, n = 10000, ops = 200000;
  for (const Workload& w : CoreWorkloads()) {
    std::printf("workload %s seed %llu\n", w.id.c_str(), static_cast<unsigned long long>(seed));
    Generator g(w, n, seed, ops);
    double count[5] = {0, 0, 0, 0, 0};
    uint64_t next_insert = n;
    for (uint64_t i = 0; i < ops; ++i) {
      Op op = g.Next();
      ++count[static_cast<int>(op.type)];
      if (op.type == OpType::kInsert) {
        EXPECT_EQ(op.record, next_insert++);  // inserts take the next record number
      } else {
        ASSERT_LT(op.record, g.record_count()) << w.id;  // only records that exist
      }
      if (op.type == OpType::kScan) {
        ASSERT_GE(op.scan_length, 1);
        ASSERT_LE(op.scan_length, 100);
      } else {
        EXPECT_EQ(op.scan_length, 0);
      }
    }
    EXPECT_EQ(g.record_count(), next_insert);
    const double want[5] = {w.read, w.update, w.insert, w.scan, w.rmw};
    for (int t = 0; t < 5; ++t) {
      EXPECT_NEAR(count[t] / ops, want[t], 0.005) << w.id << " " << OpTypeName(static_cast<OpType>(t)) << " seed " << seed;
    }
  }
}

TEST(YcsbGenerator, ScanLengthsAreUniformOneToHundred) {
  Generator g(FindWorkload("e").value(), 5000, 5);
  double sum = 0;
  int scans = 0, ones = 0, hundreds = 0;
  for (int i = 0; i < 100000; ++i) {
    Op op = g.Next();
    if (op.type != OpType::kScan) continue;
    ++scans;
    sum += op.scan_length;
    ones += op.scan_length == 1;
    hundreds += op.scan_length == 100;
  }
  EXPECT_NEAR(sum / scans, 50.5, 0.5);
  EXPECT_GT(ones, 0);
  EXPECT_GT(hundreds, 0);
}

TEST(YcsbGenerator, ZipfianWorkloadsHitTheHotRecordLatestTheNewest) {
  const uint64_t n = 25000;
  Generator c(FindWorkload("c").value(), n, 9);
  uint64_t hot = 0;
  for (int i = 0; i < 100000; ++i) hot += c.Next().record == FnvHash64(0) % (n + 1);
  EXPECT_NEAR(hot / 100000.0, 1 / kScrambledZetan, 0.004);
  Generator d(FindWorkload("d").value(), n, 9);
  uint64_t recent = 0, reads = 0;
  for (int i = 0; i < 100000; ++i) {
    Op op = d.Next();
    if (op.type != OpType::kRead) continue;
    ++reads;
    recent += op.record + 250 >= d.record_count();
  }
  EXPECT_GT(static_cast<double>(recent) / reads, 0.5);
}

TEST(YcsbGenerator, UniformCoversTheLoadedRecords) {
  Workload w = FindWorkload("c").value();
  w.dist = Distribution::kUniform;
  Generator g(w, 100, 4);
  std::vector<int> count(100);
  for (int i = 0; i < 100000; ++i) ++count[g.Next().record];
  for (int c : count) EXPECT_NEAR(c, 1000, 150);
}

TEST(YcsbGenerator, DeterministicFromTheSeed) {
  for (const Workload& w : CoreWorkloads()) {
    Generator a(w, 1000, 42), b(w, 1000, 42), other(w, 1000, 43);
    bool differs = false;
    for (int i = 0; i < 10000; ++i) {
      Op x = a.Next(), y = b.Next(), z = other.Next();
      ASSERT_EQ(static_cast<int>(x.type), static_cast<int>(y.type));
      ASSERT_EQ(x.record, y.record);
      ASSERT_EQ(x.scan_length, y.scan_length);
      differs |= x.record != z.record || x.type != z.type;
    }
    EXPECT_TRUE(differs) << w.id;
  }
}

TEST(YcsbGenerator, NoRecordsYetMeansInserts) {
  Generator g(FindWorkload("a").value(), 0, 1);
  Op first = g.Next();
  EXPECT_EQ(first.type, OpType::kInsert);
  EXPECT_EQ(first.record, 0u);
  for (int i = 0; i < 100; ++i) ASSERT_LT(g.Next().record, g.record_count());
}

TEST(YcsbKeys, TwentyUniformDistinctBytes) {
  std::set<std::string> seen;
  std::string k;
  double mean[20] = {};
  const int n = 100000;
  for (int r = 0; r < n; ++r) {
    KeyFor(r, 20, &k);
    ASSERT_EQ(k.size(), 20u);
    for (int i = 0; i < 20; ++i) mean[i] += static_cast<uint8_t>(k[i]);
    seen.insert(k);
  }
  EXPECT_EQ(seen.size(), static_cast<size_t>(n));
  for (int i = 0; i < 20; ++i) EXPECT_NEAR(mean[i] / n, 127.5, 1.5) << "byte " << i;
  std::string a, b;
  KeyFor(7, 20, &a);
  KeyFor(7, 20, &b);
  EXPECT_EQ(a, b);
  KeyFor(7, 8, &b);
  EXPECT_EQ(a.substr(0, 8), b);
}

TEST(YcsbKeys, ValuesDependOnRecordAndVersion) {
  std::string v1, v2, v3;
  ValueFor(5, 0, 200, &v1);
  ValueFor(5, 1, 200, &v2);
  ValueFor(6, 0, 200, &v3);
  EXPECT_EQ(v1.size(), 200u);
  EXPECT_NE(v1, v2);
  EXPECT_NE(v1, v3);
  ValueFor(5, 0, 200, &v2);
  EXPECT_EQ(v1, v2);
  std::string t1, t2;
  KeyForText("alice", 20, &t1);
  KeyForText("bob", 20, &t2);
  EXPECT_EQ(t1.size(), 20u);
  EXPECT_NE(t1, t2);
}

}  // namespace
}  // namespace fawnlab::ycsb
