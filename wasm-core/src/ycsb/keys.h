// The keys and values the YCSB generator's record numbers stand for (CONA thesis §3.2: 20-byte
// keys, 200-byte values).
//
// YCSB's insertorder=hashed names record n "user" + FNVhash64(n); the CONA store's trie needs
// keys of uniformly distributed bytes (digest §5), so here record n's key is the bytes of a
// bijective 64-bit mix of n (SplitMix64's finalizer), big-endian, followed by further
// SplitMix64 words seeded from it: uniform bytes, and distinct records give distinct keys
// whenever key_bytes >= 8 (the first 8 bytes alone are a bijection of n). Key order is
// therefore unrelated to insert order, as with YCSB's hashed order.
//
// Values are pseudo-random bytes of (record, version): an update writes a new version, so the
// bytes differ and a read can be checked against the version it should see.
#ifndef FAWNLAB_YCSB_KEYS_H_
#define FAWNLAB_YCSB_KEYS_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace fawnlab::ycsb {

void KeyFor(uint64_t record, uint32_t key_bytes, std::string* out);
void ValueFor(uint64_t record, uint64_t version, uint32_t value_bytes, std::string* out);
// A typed key ("alice") hashed to key_bytes uniform bytes the same way (FNV-1a 64 of the text
// in place of the record number): what a live session puts when a student types a key.
void KeyForText(std::string_view text, uint32_t key_bytes, std::string* out);

}  // namespace fawnlab::ycsb

#endif  // FAWNLAB_YCSB_KEYS_H_
