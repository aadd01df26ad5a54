// Ring arithmetic for the FAWN-DS lab: positions on the 160-bit key ring (SOSP'09 §3.4.1: keys
// and virtual IDs share one 160-bit space) as fractions, points at a fraction of a range (a
// split "at 0.5"), and labels.
// Ranges are (start, end]; start == end is the whole ring (fawnds/key.h).
#ifndef FAWNLAB_FAWNDS_LAB_RING_H_
#define FAWNLAB_FAWNDS_LAB_RING_H_

#include <string>
#include <vector>

#include "fawnds/key.h"

namespace fawnlab::fawndslab {

// k's position on the ring in [0, 1) (its top 53 bits).
double RingFraction(const fawnds::Key& k);
// The key `fraction` of the way from r.start to r.end (the whole ring when start == end),
// rounded down at 2^-32 of the range's width. REQUIRES: 0 <= fraction < 1.
fawnds::Key RingAt(const fawnds::KeyRange& r, double fraction);
// The ranges `n` stores take when they split the ring evenly: boundaries at i / n.
std::vector<fawnds::KeyRange> EvenRanges(int n);
// "(4000…, 8000…]" — the first `digits` hex digits of each end; "the whole ring" for start == end.
std::string RangeLabel(const fawnds::KeyRange& r, int digits = 4);

}  // namespace fawnlab::fawndslab

#endif  // FAWNLAB_FAWNDS_LAB_RING_H_
