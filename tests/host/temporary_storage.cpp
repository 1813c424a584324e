// detail::temporary_storage::layout: sizes, alignment, aliases, the errors of map_to_buffer and query_or_map.
#include <strata/util/temporary_storage.cuh>

#include "catch2_shim.hpp"

#include <cstdint>
#include <vector>

using strata::detail::temporary_storage::ALIGN_BYTES;
using strata::detail::temporary_storage::layout;

namespace
{
bool aligned(const void* p)
{
  return reinterpret_cast<std::uintptr_t>(p) % ALIGN_BYTES == 0;
}
} // namespace

TEST_CASE("an empty layout asks for one byte and maps to any non-null buffer", "[temporary_storage]")
{
  layout<2> l;
  CHECK(l.get_size() == 1);
  char byte = 0;
  CHECK(l.map_to_buffer(&byte, 1) == cudaSuccess);
  CHECK(l.map_to_buffer(nullptr, 1) == cudaErrorInvalidValue);
}

TEST_CASE("slots are separate, aligned and as large as their largest alias", "[temporary_storage]")
{
  layout<3> l;
  auto a = l.get_slot(0)->create_alias<double>(10); // 80 bytes
  auto b = l.get_slot(1)->create_alias<int>(1000);  // 4000 bytes
  auto c = l.get_slot(1)->create_alias<char>(5000); // 5000 bytes, shares slot 1 with b
  auto d = l.get_slot(2)->create_alias<int>();      // empty until it grows
  d.grow(3);
  d.grow(2); // never shrinks
  CHECK(d.size() == 3);
  CHECK(l.get_slot(1)->bytes() == 5000);

  const std::size_t expected = 256 + 5120 + 256 + (ALIGN_BYTES - 1);
  CHECK(l.get_size() == expected);

  // A misaligned base still works: the slack in get_size() pays for aligning it.
  std::vector<char> storage(expected + 2 * ALIGN_BYTES);
  char* misaligned = storage.data();
  while (reinterpret_cast<std::uintptr_t>(misaligned) % ALIGN_BYTES != 1)
  {
    ++misaligned;
  }
  REQUIRE(l.map_to_buffer(misaligned, expected) == cudaSuccess);
  CHECK(aligned(a.get()));
  CHECK(aligned(b.get()));
  CHECK(aligned(d.get()));
  CHECK(static_cast<void*>(b.get()) == static_cast<void*>(c.get()));
  CHECK(reinterpret_cast<char*>(b.get()) >= reinterpret_cast<char*>(a.get()) + 80);
  CHECK(reinterpret_cast<char*>(d.get()) >= reinterpret_cast<char*>(c.get()) + 5000);
  CHECK(reinterpret_cast<char*>(d.get()) + 3 * sizeof(int) <= misaligned + expected);
}

TEST_CASE("a buffer smaller than the layout is rejected", "[temporary_storage]")
{
  layout<1> l;
  auto a = l.get_slot(0)->create_alias<int>(100);
  std::vector<char> storage(l.get_size());
  CHECK(l.map_to_buffer(storage.data(), l.get_size() - 1) == cudaErrorInvalidValue);
  CHECK(a.get() == nullptr);
  CHECK(l.map_to_buffer(storage.data(), l.get_size()) == cudaSuccess);
  CHECK(a.get() != nullptr);
}

TEST_CASE("query_or_map answers the size query for null storage and maps any other", "[temporary_storage]")
{
  layout<2> l;
  auto a       = l.get_slot(0)->create_alias<int>(100);
  auto b       = l.get_slot(1)->create_alias<double>(7);
  bool mapped  = true;
  size_t bytes = 0;
  CHECK(l.query_or_map(nullptr, bytes, mapped) == cudaSuccess);
  CHECK_FALSE(mapped);
  CHECK(bytes == l.get_size());
  CHECK(a.get() == nullptr);

  std::vector<char> buffer(bytes);
  CHECK(l.query_or_map(buffer.data(), bytes, mapped) == cudaSuccess);
  CHECK(mapped);
  CHECK(a.get() != nullptr);
  CHECK(aligned(b.get()));

  size_t too_few = bytes - 1;
  CHECK(l.query_or_map(buffer.data(), too_few, mapped) == cudaErrorInvalidValue);
  CHECK(mapped);
  CHECK(too_few == bytes - 1);
}
