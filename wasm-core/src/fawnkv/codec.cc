#include "fawnkv/codec.h"

#include <memory>
#include <utility>

#include "base/coding.h"

namespace fawnlab::fawnkv::codec {

namespace {

enum Flag : uint8_t { kFound = 1, kDel = 2, kSpec = 4, kRecords = 8, kItems = 16, kStatus = 32, kRoom = 64 };
constexpr uint8_t kKnownFlags = kFound | kDel | kSpec | kRecords | kItems | kStatus | kRoom;

class Writer {
 public:
  void U8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void U16(uint32_t v) { Fixed(v, 2); }
  void U32(uint32_t v) { Fixed(v, 4); }
  void I32(int32_t v) { Fixed(static_cast<uint32_t>(v), 4); }
  void U64(uint64_t v) { Fixed(v, 8); }
  void KeyBytes(const Key& k) { out_.append(reinterpret_cast<const char*>(k.bytes.data()), k.bytes.size()); }
  void Bytes(const std::string& s) {
    U32(static_cast<uint32_t>(s.size()));
    out_.append(s);
  }
  std::string Take() { return std::move(out_); }

 private:
  void Fixed(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out_.push_back(static_cast<char>(v >> (8 * i)));
  }
  std::string out_;
};

// Reads fields in order; the first failure records a message naming the field and offset,
// and every later read fails too.
class Reader {
 public:
  explicit Reader(std::string_view b) : b_(b) {}
  bool ok() const { return err_.empty(); }
  const std::string& error() const { return err_; }
  size_t pos() const { return pos_; }
  size_t left() const { return b_.size() - pos_; }

  bool Fail(const std::string& field, size_t at, const std::string& why) {
    if (err_.empty()) err_ = "codec: " + field + " at offset " + std::to_string(at) + " " + why;
    return false;
  }
  bool Need(const char* field, size_t n) {
    if (!ok()) return false;
    if (left() < n) {
      return Fail(field, pos_, "is truncated: needs " + std::to_string(n) + " bytes, " + std::to_string(left()) + " left");
    }
    return true;
  }
  uint64_t Fixed(const char* field, int n) {
    if (!Need(field, static_cast<size_t>(n))) return 0;
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= uint64_t{static_cast<uint8_t>(b_[pos_ + static_cast<size_t>(i)])} << (8 * i);
    pos_ += static_cast<size_t>(n);
    return v;
  }
  uint8_t U8(const char* f) { return static_cast<uint8_t>(Fixed(f, 1)); }
  uint32_t U16(const char* f) { return static_cast<uint32_t>(Fixed(f, 2)); }
  uint32_t U32(const char* f) { return static_cast<uint32_t>(Fixed(f, 4)); }
  uint64_t U64(const char* f) { return Fixed(f, 8); }
  Endpoint EndpointField(const char* f) {
    const size_t at = pos_;
    const Endpoint e = static_cast<Endpoint>(static_cast<int32_t>(U32(f)));
    if (ok() && !ValidEndpoint(e)) Fail(f, at, "is " + std::to_string(e) + ", not a valid endpoint");
    return e;
  }
  void KeyField(const char* f, Key* k) {
    if (!Need(f, k->bytes.size())) return;
    for (size_t i = 0; i < k->bytes.size(); ++i) k->bytes[i] = static_cast<uint8_t>(b_[pos_ + i]);
    pos_ += k->bytes.size();
  }
  // A length-prefixed byte string of at most `limit` bytes.
  void BytesField(const std::string& f, uint32_t limit, std::string* out) {
    const size_t at = pos_;
    const uint32_t n = U32((f + ".length").c_str());
    if (!ok()) return;
    if (n > limit) {
      Fail(f + ".length", at, "is " + std::to_string(n) + ", over the limit " + std::to_string(limit));
      return;
    }
    if (left() < n) {
      Fail(f, pos_, "is truncated: " + std::to_string(n) + " bytes declared, " + std::to_string(left()) + " left");
      return;
    }
    out->assign(b_.data() + pos_, n);
    pos_ += n;
  }
  // A count of at most `limit` elements, each at least `min_each` bytes.
  uint32_t Count(const char* f, int width, uint32_t limit, size_t min_each) {
    const size_t at = pos_;
    const uint32_t n = static_cast<uint32_t>(Fixed(f, width));
    if (!ok()) return 0;
    if (n > limit) {
      Fail(f, at, "is " + std::to_string(n) + ", over the limit " + std::to_string(limit));
      return 0;
    }
    if (static_cast<uint64_t>(n) * min_each > left()) {
      Fail(f, at, "is " + std::to_string(n) + " but only " + std::to_string(left()) + " bytes follow");
      return 0;
    }
    return n;
  }

 private:
  std::string_view b_;
  size_t pos_ = 0;
  std::string err_;
};

}  // namespace

bool ValidEndpoint(Endpoint e) {
  return e == kNobody || (e >= 0 && e <= kMaxBackendId) || (e < 0 && e >= -kMaxFrontEnds);
}

std::string Encode(const Message& m) {
  Writer w;
  uint8_t flags = 0;
  if (m.found) flags |= kFound;
  if (m.del) flags |= kDel;
  if (m.spec) flags |= kSpec;
  if (m.records) flags |= kRecords;
  if (m.items) flags |= kItems;
  if (m.status != ReplyStatus::kOk) flags |= kStatus;
  if (m.room != kRoomUnknown) flags |= kRoom;
  w.U8(kMagic);
  w.U8(kVersion);
  w.U8(static_cast<uint8_t>(m.kind));
  w.U8(flags);
  w.I32(m.from);
  w.I32(m.to);
  w.I32(m.client);
  w.I32(m.peer);
  w.U64(m.req);
  w.U64(m.seq);
  w.U64(m.epoch);
  w.KeyBytes(m.key);
  w.KeyBytes(m.range.start);
  w.KeyBytes(m.range.end);
  w.Bytes(m.value);
  if (m.status != ReplyStatus::kOk) w.U8(static_cast<uint8_t>(m.status));
  if (m.room != kRoomUnknown) w.U64(m.room);
  if (m.spec) {
    w.U16(static_cast<uint32_t>(m.spec->chain.size()));
    for (Endpoint e : m.spec->chain) w.I32(e);
    w.I32(m.spec->joiner);
    w.I32(m.spec->donor);
  }
  if (m.records) {
    w.U32(static_cast<uint32_t>(m.records->size()));
    for (const KvRecord& r : *m.records) {
      w.KeyBytes(r.key);
      w.U8(r.del ? 1 : 0);
      w.Bytes(r.value);
    }
  }
  if (m.items) {
    w.U32(static_cast<uint32_t>(m.items->size()));
    for (const MultiItem& it : *m.items) {
      w.KeyBytes(it.key);
      w.U8(it.state);
      w.Bytes(it.value);
    }
  }
  return w.Take();
}

StatusOr<Message> Decode(std::string_view bytes) {
  if (bytes.size() > kMaxFrame) {
    return Status::InvalidArgument("codec: a frame of " + std::to_string(bytes.size()) + " bytes is over the limit " +
                                   std::to_string(kMaxFrame));
  }
  Reader r(bytes);
  Message m;
  const uint8_t magic = r.U8("magic");
  if (r.ok() && magic != kMagic) r.Fail("magic", 0, "is " + std::to_string(magic) + ", not 250 (0xFA): not a FAWN-KV frame");
  const uint8_t version = r.U8("version");
  if (r.ok() && version != kVersion) r.Fail("version", 1, "is " + std::to_string(version) + "; this build speaks version 1");
  const uint8_t kind = r.U8("kind");
  if (r.ok() && kind >= kMsgKinds) r.Fail("kind", 2, "is " + std::to_string(kind) + ", not a message kind (0.." + std::to_string(kMsgKinds - 1) + ")");
  m.kind = static_cast<MsgKind>(kind);
  const uint8_t flags = r.U8("flags");
  if (r.ok() && (flags & ~kKnownFlags)) r.Fail("flags", 3, "has unknown bits (" + std::to_string(flags) + ")");
  m.found = flags & kFound;
  m.del = flags & kDel;
  m.from = r.EndpointField("from");
  m.to = r.EndpointField("to");
  m.client = r.EndpointField("client");
  m.peer = r.EndpointField("peer");
  m.req = r.U64("req");
  m.seq = r.U64("seq");
  m.epoch = r.U64("epoch");
  r.KeyField("key", &m.key);
  r.KeyField("range.start", &m.range.start);
  r.KeyField("range.end", &m.range.end);
  r.BytesField("value", kMaxValue, &m.value);
  if (r.ok() && (flags & kStatus)) {
    const size_t at = r.pos();
    const uint8_t st = r.U8("status");
    if (r.ok() && (st == 0 || st >= kReplyStatuses)) {
      r.Fail("status", at, "is " + std::to_string(st) + ", not a reply status (1.." + std::to_string(kReplyStatuses - 1) + "; 0 is sent unflagged)");
    }
    m.status = static_cast<ReplyStatus>(st);
  }
  if (r.ok() && (flags & kRoom)) {
    const size_t at = r.pos();
    m.room = r.U64("room");
    if (r.ok() && m.room == kRoomUnknown) r.Fail("room", at, "is 2^64 - 1 (unknown), which is sent unflagged");
  }
  if (r.ok() && (flags & kSpec)) {
    auto spec = std::make_shared<ChainSpec>();
    const uint32_t n = r.Count("spec.chain.count", 2, kMaxChain, 4);
    for (uint32_t i = 0; i < n && r.ok(); ++i) spec->chain.push_back(r.EndpointField("spec.chain[]"));
    spec->joiner = r.EndpointField("spec.joiner");
    spec->donor = r.EndpointField("spec.donor");
    m.spec = std::move(spec);
  }
  if (r.ok() && (flags & kRecords)) {
    auto recs = std::make_shared<std::vector<KvRecord>>();
    const uint32_t n = r.Count("records.count", 4, kMaxRecords, 25);
    recs->reserve(n);
    for (uint32_t i = 0; i < n && r.ok(); ++i) {
      KvRecord rec;
      r.KeyField("records[].key", &rec.key);
      const size_t at = r.pos();
      const uint8_t del = r.U8("records[].del");
      if (r.ok() && del > 1) r.Fail("records[" + std::to_string(i) + "].del", at, "is " + std::to_string(del) + ", not 0 or 1");
      rec.del = del == 1;
      r.BytesField("records[" + std::to_string(i) + "].value", kMaxValue, &rec.value);
      recs->push_back(std::move(rec));
    }
    m.records = std::move(recs);
  }
  if (r.ok() && (flags & kItems)) {
    auto items = std::make_shared<std::vector<MultiItem>>();
    const uint32_t n = r.Count("items.count", 4, kMaxItems, 25);
    items->reserve(n);
    for (uint32_t i = 0; i < n && r.ok(); ++i) {
      MultiItem it;
      r.KeyField("items[].key", &it.key);
      const size_t at = r.pos();
      const uint8_t st = r.U8("items[].state");
      if (r.ok() && st > MultiItem::kNotHere) r.Fail("items[" + std::to_string(i) + "].state", at, "is " + std::to_string(st) + ", not 0, 1 or 2");
      it.state = static_cast<MultiItem::State>(st);
      r.BytesField("items[" + std::to_string(i) + "].value", kMaxValue, &it.value);
      items->push_back(std::move(it));
    }
    m.items = std::move(items);
  }
  if (r.ok() && r.left() > 0) r.Fail("end", r.pos(), "is followed by " + std::to_string(r.left()) + " unexpected bytes");
  if (!r.ok()) return Status::InvalidArgument(r.error());
  m.bytes = WireBytes(m);
  return m;
}

}  // namespace fawnlab::fawnkv::codec
