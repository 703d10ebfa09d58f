// Symbols that code compiled by clang 14's JIT needs from libstdc++ 12 but that libstdc++.so does
// not export. This file is compiled with -fkeep-inline-functions and linked into gyre-kernel,
// which exports its symbols (-rdynamic) to the JIT.
//  - Members of the extern-template string classes that are always inlined by GCC
//    (basic_string::_M_use_local_data, …): an explicit instantiation emits all of them.
//  - Inline members of non-template classes (type_info::name): kept by -fkeep-inline-functions.
//  - LLVM 14's JIT lowers thread_local to emulated TLS, so a reference to libstdc++'s
//    thread-local __once_call/__once_callable (from <mutex>) asks for the emutls control objects
//    "__emutls_v.<name>". They are defined here so that such code links; they are the JIT's own
//    copies, so std::call_once must not be called from notebook cells (libgyre may use it).

#include <cstddef>
#include <mutex>
#include <string>
#include <typeinfo>

template class std::basic_string<char>;
template class std::basic_string<wchar_t>;

namespace {
// libgcc's layout of an emulated-TLS control object.
struct EmutlsControl {
  std::size_t size;
  std::size_t align;
  void* object;
  void* initial_value;
};
}  // namespace

extern "C" {
EmutlsControl gyre_emutls_once_call asm("__emutls_v._ZSt11__once_call") = {sizeof(void (*)()), alignof(void (*)()),
                                                                           nullptr, nullptr};
EmutlsControl gyre_emutls_once_callable asm("__emutls_v._ZSt15__once_callable") = {sizeof(void*), alignof(void*),
                                                                                   nullptr, nullptr};
}
