// LevelDB's Bloom filter (util/bloom.cc of LevelDB 1.23), byte for byte: k = bits_per_key ×
// 0.69 (ln 2) probes clamped to [1, 30], a filter of max(n × bits_per_key, 64) bits rounded up
// to whole bytes with k in a last byte, and double hashing from one 32-bit hash (LevelDB's
// murmur-like Hash with seed 0xbc9f1d34; delta = the hash rotated right by 17). The expected
// false-positive rate is about 0.6185^bits_per_key.
#ifndef FAWNLAB_LSM_BLOOM_H_
#define FAWNLAB_LSM_BLOOM_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fawnlab::lsm {

// LevelDB's Hash (util/hash.cc).
uint32_t LevelDbHash(const char* data, size_t n, uint32_t seed);
inline uint32_t BloomHash(std::string_view key) { return LevelDbHash(key.data(), key.size(), 0xbc9f1d34); }

// Probes for `bits_per_key` (LevelDB: static_cast<size_t>(bits_per_key * 0.69), clamped).
int BloomProbes(int bits_per_key);

// Appends the filter over `keys` to `dst` (LevelDB's CreateFilter).
void BloomCreate(const std::vector<std::string_view>& keys, int bits_per_key, std::string* dst);

// Whether `key` may be in the filter; `probes` (if given) receives the bit tests made (for
// the CPU cost). A filter too short to hold one is a match (LevelDB's rule).
bool BloomMayMatch(std::string_view key, std::string_view filter, int* probes = nullptr);

}  // namespace fawnlab::lsm

#endif  // FAWNLAB_LSM_BLOOM_H_
