#include "silt/costs.h"

#include <initializer_list>

namespace fawnlab::silt {

const SiltCosts& SiltI7() {
  static const SiltCosts kCosts{};
  return kCosts;
}

cona::HostCosts Scaled(const cona::HostCosts& c, double s) {
  cona::HostCosts r = c;
  for (double* f : {&r.op_base_ns, &r.key_compare_ns, &r.insert_move_ns_per_byte, &r.trie_symbol_ns,
                    &r.cell_probe_ns, &r.fragment_compare_ns, &r.entry_compare_ns, &r.induce_copy_ns_per_byte,
                    &r.build_ns_per_key, &r.merge_ns_per_entry})
    *f *= s;
  return r;
}

SiltCosts Scaled(const SiltCosts& c, double s) {
  SiltCosts r = c;
  for (double* f : {&r.cuckoo_hash_ns, &r.bucket_probe_ns, &r.tag_compare_ns, &r.displacement_ns, &r.syscall_ns}) *f *= s;
  return r;
}

}  // namespace fawnlab::silt
