// Codec: fawnkv::Message as bytes, for the real cluster's TCP frames (docs/cluster.md).
//
// Contract:
// - Encode(m) → one frame payload; Decode(bytes) → the message, or a Status naming the field
//   and its byte offset ("codec: value.length at offset 62 is 2000000, over the limit
//   1048576"). Decode(Encode(m)) reproduces every field the protocol reads; `bytes` (the
//   modelled wire size) is recomputed as WireBytes.
// - Layout (little-endian, version 1): magic 0xFA, version, kind, flags (bit 0 found, 1 del,
//   2 spec, 3 records, 4 items, 5 status, 6 room); from, to, client, peer (i32); req, seq,
//   epoch (u64); key, range.start, range.end (20 bytes each); value (u32 length + bytes); then,
//   when flagged, the status (u8, a ReplyStatus other than kOk), the room (u64, not
//   kRoomUnknown), the spec (u16 n, n × i32 chain,
//   i32 joiner, i32 donor), the records (u32 n, each: key, u8 del, u32 length, bytes) and the
//   items (u32 n, each: key, u8 state, u32 length, bytes).
// - Status (bit 5) and room (bit 6) extend version 1 without a new version: a message with
//   status kOk and room kRoomUnknown encodes exactly as before, so frames from a build
//   without them still decode, and a build without them refuses the new fields by name
//   ("flags has unknown bits") rather than misreading them. A flagged kOk or kRoomUnknown is
//   refused (one encoding per message).
// - Decode validates everything: magic, version, kind, unknown flag bits, every endpoint
//   (a back-end id in [0, kMaxBackendId], a front-end in [−kMaxFrontEnds, −1], or kNobody),
//   every length against its limit and against the bytes left, each state byte, and that
//   nothing trails the message. It never reads out of bounds, whatever the input.
#ifndef FAWNLAB_FAWNKV_CODEC_H_
#define FAWNLAB_FAWNKV_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"
#include "fawnds/record.h"
#include "fawnkv/message.h"

namespace fawnlab::fawnkv::codec {

constexpr uint8_t kMagic = 0xFA;
constexpr uint8_t kVersion = 1;
constexpr uint32_t kMaxValue = fawnds::kMaxValue;  // 1 MiB + 4: a client's 1 MiB behind its flags
constexpr uint32_t kMaxRecords = 4096;       // per pre-copy or flush batch
constexpr uint32_t kMaxItems = 4096;         // per multiget
constexpr uint32_t kMaxChain = 64;           // members in a chain spec
constexpr uint32_t kMaxFrame = 16u << 20;    // the frame limit (the TCP layer's)
constexpr int kMaxBackendId = (1 << 20) - 1;
constexpr int kMaxFrontEnds = 64;

std::string Encode(const Message& m);
StatusOr<Message> Decode(std::string_view bytes);

// Whether `e` is an endpoint a frame may name (see the contract).
bool ValidEndpoint(Endpoint e);

}  // namespace fawnlab::fawnkv::codec

#endif  // FAWNLAB_FAWNKV_CODEC_H_
