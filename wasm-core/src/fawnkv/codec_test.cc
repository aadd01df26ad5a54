// Codec round trips of every message kind, and truncated, oversized and garbage frames.
#include "fawnkv/codec.h"

#include <gtest/gtest.h>

#include <string>

#include "sim/rng.h"

namespace fawnlab::fawnkv::codec {
namespace {

Message Full(MsgKind kind) {
  Message m;
  m.kind = kind;
  m.from = 3;
  m.to = FrontEndpoint(0);
  m.client = FrontEndpoint(2);
  m.peer = kNobody;
  m.req = 0x0102030405060708ull;
  m.seq = 77;
  m.epoch = 5;
  m.key = Key::Hash("k");
  m.range = KeyRange{Key::Hash("a"), Key::Hash("b")};
  m.value = std::string("v\0al", 4);
  m.found = true;
  m.del = kind == MsgKind::kDelete;
  return m;
}

void ExpectSame(const Message& a, const Message& b) {
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.from, b.from);
  EXPECT_EQ(a.to, b.to);
  EXPECT_EQ(a.client, b.client);
  EXPECT_EQ(a.peer, b.peer);
  EXPECT_EQ(a.req, b.req);
  EXPECT_EQ(a.seq, b.seq);
  EXPECT_EQ(a.epoch, b.epoch);
  EXPECT_EQ(a.key, b.key);
  EXPECT_EQ(a.range.start, b.range.start);
  EXPECT_EQ(a.range.end, b.range.end);
  EXPECT_EQ(a.value, b.value);
  EXPECT_EQ(a.found, b.found);
  EXPECT_EQ(a.del, b.del);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.room, b.room);
  ASSERT_EQ(!a.spec, !b.spec);
  if (a.spec) {
    EXPECT_EQ(a.spec->chain, b.spec->chain);
    EXPECT_EQ(a.spec->joiner, b.spec->joiner);
    EXPECT_EQ(a.spec->donor, b.spec->donor);
  }
  ASSERT_EQ(!a.records, !b.records);
  if (a.records) {
    ASSERT_EQ(a.records->size(), b.records->size());
    for (size_t i = 0; i < a.records->size(); ++i) {
      EXPECT_EQ((*a.records)[i].key, (*b.records)[i].key);
      EXPECT_EQ((*a.records)[i].value, (*b.records)[i].value);
      EXPECT_EQ((*a.records)[i].del, (*b.records)[i].del);
    }
  }
  ASSERT_EQ(!a.items, !b.items);
  if (a.items) {
    ASSERT_EQ(a.items->size(), b.items->size());
    for (size_t i = 0; i < a.items->size(); ++i) {
      EXPECT_EQ((*a.items)[i].key, (*b.items)[i].key);
      EXPECT_EQ((*a.items)[i].state, (*b.items)[i].state);
      EXPECT_EQ((*a.items)[i].value, (*b.items)[i].value);
    }
  }
  EXPECT_EQ(WireBytes(a), b.bytes);
}

// One message of each kind with the fields that kind carries.
std::vector<Message> EveryKind() {
  std::vector<Message> all;
  for (int k = 0; k < kMsgKinds; ++k) {
    Message m = Full(static_cast<MsgKind>(k));
    switch (m.kind) {
      case MsgKind::kSeal:
      case MsgKind::kConfig: {
        auto spec = std::make_shared<ChainSpec>();
        spec->chain = {4, 1, 7};
        spec->joiner = 7;
        spec->donor = 1;
        m.spec = spec;
        m.peer = 7;
        break;
      }
      case MsgKind::kPrecopyData:
      case MsgKind::kFlushData: {
        auto recs = std::make_shared<std::vector<KvRecord>>();
        recs->push_back(KvRecord{Key::FromU64(1), "one", false});
        recs->push_back(KvRecord{Key::FromU64(2), "", true});
        recs->push_back(KvRecord{Key::FromU64(3), std::string(1000, 'x'), false});
        m.records = recs;
        break;
      }
      case MsgKind::kMultiGet:
      case MsgKind::kMultiReply: {
        auto items = std::make_shared<std::vector<MultiItem>>();
        items->push_back(MultiItem{Key::FromU64(9), MultiItem::kFound, "nine"});
        items->push_back(MultiItem{Key::FromU64(10), MultiItem::kMissing, ""});
        items->push_back(MultiItem{Key::FromU64(11), MultiItem::kNotHere, ""});
        m.items = items;
        break;
      }
      default: break;
    }
    all.push_back(m);
  }
  Message refused = Full(MsgKind::kReply);  // a put the store refused: the status byte
  refused.found = false;
  refused.value.clear();
  refused.status = ReplyStatus::kNoSpace;
  all.push_back(refused);
  Message ack = Full(MsgKind::kAck);  // an ack carrying the chain's room
  ack.room = 123456;
  all.push_back(ack);
  return all;
}

TEST(FawnkvCodec, EveryKindRoundTrips) {
  for (const Message& m : EveryKind()) {
    SCOPED_TRACE(KindName(m.kind));
    const std::string b = Encode(m);
    EXPECT_EQ(static_cast<uint8_t>(b[0]), kMagic);
    auto d = Decode(b);
    ASSERT_TRUE(d.ok()) << d.status().message();
    ExpectSame(m, d.value());
    EXPECT_EQ(Encode(d.value()), b);
  }
}

TEST(FawnkvCodec, EmptyAndLargestFieldsRoundTrip) {
  Message m;  // all defaults: an empty value, no spec/records/items
  auto d = Decode(Encode(m));
  ASSERT_TRUE(d.ok()) << d.status().message();
  ExpectSame(m, d.value());
  m.kind = MsgKind::kPut;
  m.value.assign(kMaxValue, 'z');
  m.from = kMaxBackendId;
  m.to = -kMaxFrontEnds;
  d = Decode(Encode(m));
  ASSERT_TRUE(d.ok()) << d.status().message();
  ExpectSame(m, d.value());
}

TEST(FawnkvCodec, EveryTruncationIsRefusedWithTheFieldNamed) {
  for (const Message& m : EveryKind()) {
    const std::string b = Encode(m);
    for (size_t n = 0; n < b.size(); ++n) {
      auto d = Decode(std::string_view(b).substr(0, n));
      ASSERT_FALSE(d.ok()) << KindName(m.kind) << " cut at " << n;
      EXPECT_NE(d.status().message().find("at offset"), std::string::npos) << d.status().message();
    }
    auto extra = Decode(b + "x");
    ASSERT_FALSE(extra.ok());
    EXPECT_NE(extra.status().message().find("unexpected bytes"), std::string::npos) << extra.status().message();
  }
}

TEST(FawnkvCodec, BadHeaderFieldsAreNamed) {
  const std::string good = Encode(Full(MsgKind::kGet));
  auto expect = [](std::string b, const std::string& needle) {
    auto d = Decode(b);
    ASSERT_FALSE(d.ok());
    EXPECT_NE(d.status().message().find(needle), std::string::npos) << d.status().message();
  };
  std::string b = good;
  b[0] = '{';
  expect(b, "magic at offset 0");
  b = good;
  b[1] = 2;
  expect(b, "version at offset 1");
  b = good;
  b[2] = static_cast<char>(kMsgKinds);
  expect(b, "kind at offset 2");
  b = good;
  b[3] = static_cast<char>(0x80);
  expect(b, "flags at offset 3");
  b = good;
  b[4] = static_cast<char>(0x9c);  // from = −100: no such front-end
  b[5] = b[6] = b[7] = static_cast<char>(0xff);
  expect(b, "from at offset 4");
  b = good;
  b[19] = 0x7f;  // peer's high byte: a huge back-end id
  expect(b, "peer at offset 16");
  // value.length (offset 104): over the limit, then more than the bytes left.
  b = good;
  b[104 + 3] = 0x10;
  expect(b, "value.length at offset 104");
  b = good;
  b[104] = 100;
  expect(b, "value at offset 108 is truncated");
  expect("", "magic at offset 0 is truncated");
}

TEST(FawnkvCodec, ReplyStatusIsFlaggedOnlyWhenNotOk) {
  Message ok = Full(MsgKind::kReply);
  const std::string plain = Encode(ok);
  EXPECT_EQ(static_cast<uint8_t>(plain[3]) & 32, 0) << "an ok reply encodes as before the status existed";
  Message refused = ok;
  refused.status = ReplyStatus::kNoSpace;
  const std::string b = Encode(refused);
  ASSERT_EQ(b.size(), plain.size() + 1);
  EXPECT_EQ(static_cast<uint8_t>(b[3]) & 32, 32);
  const size_t at = 108 + ok.value.size();  // the status byte follows the value
  EXPECT_EQ(static_cast<uint8_t>(b[at]), 1);
  auto d = Decode(b);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d.value().status, ReplyStatus::kNoSpace);
  EXPECT_STREQ(ReplyStatusName(d.value().status), "no-space");
  for (uint8_t bad : {uint8_t{0}, uint8_t{2}, uint8_t{255}}) {  // 0 must go unflagged; 2+ unknown
    std::string x = b;
    x[at] = static_cast<char>(bad);
    auto e = Decode(x);
    ASSERT_FALSE(e.ok()) << int{bad};
    EXPECT_NE(e.status().message().find("status at offset " + std::to_string(at)), std::string::npos) << e.status().message();
  }
}

TEST(FawnkvCodec, AckRoomIsFlaggedOnlyWhenKnown) {
  Message ack = Full(MsgKind::kAck);
  const std::string plain = Encode(ack);
  EXPECT_EQ(static_cast<uint8_t>(plain[3]) & 64, 0);
  ack.room = 0;  // a full chain: known, and zero
  const std::string b = Encode(ack);
  ASSERT_EQ(b.size(), plain.size() + 8);
  auto d = Decode(b);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d.value().room, 0u);
  std::string x = b;
  const size_t at = 108 + ack.value.size();
  for (size_t i = 0; i < 8; ++i) x[at + i] = static_cast<char>(0xff);
  auto e = Decode(x);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("room at offset " + std::to_string(at)), std::string::npos) << e.status().message();
}

TEST(FawnkvCodec, ValueLimitIsAMebibytePlusTheFlagsHeader) {
  Message m = Full(MsgKind::kPut);
  m.value.assign((1u << 20) + 4, 'v');  // a 1 MiB memcached value behind its 4-byte flags
  auto d = Decode(Encode(m));
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d.value().value.size(), (1u << 20) + 4);
  m.value.push_back('v');
  d = Decode(Encode(m));
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("value.length at offset 104 is 1048581, over the limit 1048580"), std::string::npos)
      << d.status().message();
}

TEST(FawnkvCodec, BadListsAreNamed) {
  Message m = Full(MsgKind::kMultiReply);
  m.items = std::make_shared<std::vector<MultiItem>>(1);
  std::string b = Encode(m);
  const size_t items_at = b.size() - (4 + 20 + 1 + 4);
  std::string bad = b;
  bad[items_at + 4 + 20] = 3;  // state 3
  auto d = Decode(bad);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("items[0].state"), std::string::npos) << d.status().message();
  bad = b;
  bad[items_at] = static_cast<char>(0xff);
  bad[items_at + 1] = static_cast<char>(0xff);  // 65535 items: over the limit
  d = Decode(bad);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("items.count"), std::string::npos) << d.status().message();
  bad = b;
  bad[items_at] = 2;  // two items declared, one present
  d = Decode(bad);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("items.count"), std::string::npos) << d.status().message();
}

TEST(FawnkvCodec, RandomGarbageNeverCrashes) {
  const uint64_t seed = 6;
  sim::Rng rng = sim::Rng::ForStream(seed, 1);
  const std::vector<Message> kinds = EveryKind();
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string b = Encode(kinds[rng.UniformU64(kinds.size())]);
    const int flips = 1 + static_cast<int>(rng.UniformU64(4));
    for (int f = 0; f < flips; ++f) b[rng.UniformU64(b.size())] = static_cast<char>(rng.UniformU64(256));
    auto d = Decode(b);
    if (d.ok()) {
      ++accepted;
      EXPECT_EQ(Encode(d.value()), b) << "seed " << seed << " case " << i;
    } else {
      EXPECT_NE(d.status().message().find("codec: "), std::string::npos);
    }
  }
  EXPECT_GT(accepted, 0) << "seed " << seed;
}

}  // namespace
}  // namespace fawnlab::fawnkv::codec
