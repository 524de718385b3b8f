// The CUDA backend's entry points in a build without CUDA: no device exists,
// and every device operation explains why it cannot run.
#include "batch/batch_backend.hpp"
#include "cuda/backend.hpp"
#include "distributed/part_steps.hpp"
#include "dot/dot_backend.hpp"
#include "mpgpu/error.hpp"

namespace mpgpu::detail::cuda {

namespace {
[[noreturn]] void unavailable(const char* what) {
  throw BackendUnavailable(std::string("mpgpu: ") + what +
                           " needs the CUDA backend, which this build does not have");
}
}  // namespace

int device_count() noexcept { return 0; }
void init_context(ContextState&, int) { unavailable("Context::cuda"); }
void destroy_context(ContextState&) noexcept {}
DeviceInfo device_info(int) { unavailable("device_info"); }
void* allocate(ContextState&, Stream, std::size_t) { unavailable("allocate"); }
void deallocate(ContextState&, Stream, void*) noexcept {}
int pointer_device(const void*) noexcept { return -1; }
void copy_to_device(ContextState&, Stream, void*, const void*, std::size_t) { unavailable("copy"); }
void copy_to_device_synchronous(ContextState&, Stream, void*, const void*, std::size_t) { unavailable("copy"); }
void copy_pieces_to_device(ContextState&, Stream, const HostLimbs*, std::size_t) { unavailable("copy"); }
void order_after_context(ContextState&, Stream) {}
void copy_to_host(ContextState&, Stream, void*, const void*, std::size_t) { unavailable("copy"); }
void copy_on_device(ContextState&, Stream, void*, const void*, std::size_t) { unavailable("copy"); }
void prepare_host_destination(ContextState&, void*, std::size_t) {}
void synchronize(Stream) {}
void fill(ContextState&, Stream, limb_t*, std::size_t, limb_t) { unavailable("fill"); }
Deferred add_abs(ContextState&, Stream, limb_t*, Operand, Operand) { unavailable("add"); }
Deferred add_abs_scalar(ContextState&, Stream, limb_t*, Operand, limb_t) { unavailable("add"); }
Deferred sub_abs(ContextState&, Stream, limb_t*, Operand, Operand) { unavailable("sub"); }
Deferred sub_abs_scalar(ContextState&, Stream, limb_t*, Operand, limb_t) { unavailable("sub"); }
Deferred sub_abs_ordered(ContextState&, Stream, limb_t*, const limb_t*, const limb_t*, std::size_t) {
  unavailable("sub");
}
Deferred divrem_limb(ContextState&, Stream, limb_t*, limb_t*, Operand, limb_t, bool) { unavailable("division"); }
int cmp_same_size(ContextState&, Stream, const limb_t*, const limb_t*, std::size_t) { unavailable("cmp"); }
std::size_t lowest_nonzero(ContextState&, Stream, Operand) { unavailable("search"); }
std::size_t normalized_size(ContextState&, Stream, Operand) { unavailable("search"); }
bool any_low_bits(ContextState&, Stream, Operand, std::uint64_t) { unavailable("search"); }
void gather_slots(ContextState&, Stream, limb_t*, std::size_t, std::size_t, const device::SlotSource*, int) {
  unavailable("radix conversion");
}
bool correct_slots(ContextState&, Stream, limb_t*, limb_t*, Operand, Operand, Operand, std::size_t, std::size_t) {
  unavailable("radix conversion");
}
bool radix_leaves_to_text(ContextState&, Stream, char*, limb_t*, std::size_t, std::size_t, std::size_t, std::size_t,
                          const device::LimbDivisor&, int, int, const device::RadixAlphabet&) {
  unavailable("radix conversion");
}
void pow2_to_text(ContextState&, Stream, char*, Operand, std::size_t, int, const device::Pow2Alphabet&) {
  unavailable("text conversion");
}
void pow2_from_text(ContextState&, Stream, limb_t*, std::size_t, const char*, std::size_t, int,
                    const device::Pow2DigitValues&) {
  unavailable("text conversion");
}
Deferred shift_left(ContextState&, Stream, limb_t*, Operand, std::uint64_t) { unavailable("shift"); }
Deferred shift_right(ContextState&, Stream, limb_t*, Operand, std::uint64_t) { unavailable("shift"); }
Deferred bitwise(ContextState&, Stream, limb::BitwiseOp, limb_t*, Operand, bool, Operand, bool) {
  unavailable("bitwise");
}
Deferred mul_abs(ContextState&, Stream, limb_t*, Operand, Operand) { unavailable("mul"); }
Deferred mul_columns(ContextState&, Stream, limb_t*, Operand, Operand) { unavailable("mul"); }
void mul_abs_each(ContextState&, Stream, const ProductJob*, Deferred*, std::size_t) { unavailable("mul_each"); }
std::uint64_t popcount(ContextState&, Stream, Operand) { unavailable("popcount"); }
void ntt_transform(ContextState&, Stream, std::uint64_t*, std::size_t, int, std::uint64_t, std::uint64_t, bool,
                   bool) {
  unavailable("ntt_transform");
}
void ntt_transform32(ContextState&, Stream, std::uint32_t*, std::size_t, int, std::uint32_t, std::uint64_t, bool,
                     bool) {
  unavailable("ntt_transform");
}
Deferred sum_abs(ContextState&, Stream, limb_t*, const Operand*, std::size_t) { unavailable("sum"); }

// Never made without CUDA; defined so that the Integer code links.
DeferredResultWords::~DeferredResultWords() = default;
const std::uint64_t* DeferredResultWords::wait() { unavailable("DeferredResultWords::wait"); }
std::size_t ntt_first_unreduced(ContextState&, Stream, const std::uint64_t*, std::size_t, std::uint64_t,
                                std::uint64_t&) {
  unavailable("ntt_first_unreduced");
}
std::size_t ntt_first_unreduced(ContextState&, Stream, const std::uint32_t*, std::size_t, std::uint32_t,
                                std::uint32_t&) {
  unavailable("ntt_first_unreduced");
}
void ntt_pointwise(ContextState&, Stream, std::uint64_t*, const std::uint64_t*, const std::uint64_t*, std::size_t,
                   std::uint64_t) {
  unavailable("ntt_pointwise_mul");
}
void poly_mul_schoolbook(ContextState&, Stream, std::uint64_t*, const std::uint64_t*, std::size_t,
                         const std::uint64_t*, std::size_t, std::size_t, std::uint64_t) {
  unavailable("poly_mul");
}
void gfp_fft(ContextState&, Stream, int, std::uint64_t, std::uint64_t*, std::size_t, int, const std::uint64_t*, int,
             const std::uint64_t*) {
  unavailable("gfp::DeviceFft");
}
void gfp_pointwise_mul(ContextState&, Stream, int, std::uint64_t, std::uint64_t*, const std::uint64_t*,
                       const std::uint64_t*, std::size_t) {
  unavailable("gfp::pointwise_mul");
}
void poly_mul_ntt(ContextState&, Stream, std::uint64_t*, const std::uint64_t*, std::size_t, const std::uint64_t*,
                  std::size_t, std::size_t, int, std::uint64_t, std::uint64_t) {
  unavailable("poly_mul");
}

}  // namespace mpgpu::detail::cuda

namespace mpgpu::detail::batch::cuda {

void run(ContextState&, Stream, const Args&) {
  throw BackendUnavailable("mpgpu: batch operations on a CUDA context need the CUDA backend, which this build does not have");
}
bool any_bad_modulus(ContextState&, Stream, const limb_t*, std::size_t, std::size_t) {
  throw BackendUnavailable("mpgpu: batch moduli on a CUDA context need the CUDA backend, which this build does not have");
}
std::size_t first_zero_instance(ContextState&, Stream, const limb_t*, std::size_t, std::size_t) {
  throw BackendUnavailable("mpgpu: batch divisors on a CUDA context need the CUDA backend, which this build does not have");
}
std::size_t repack_device_limbs(ContextState&, Stream, limb_t*, std::size_t, std::size_t, const limb_t*, std::size_t,
                                std::size_t, std::size_t) {
  throw BackendUnavailable("mpgpu: device limbs on a CUDA context need the CUDA backend, which this build does not have");
}
void series_leaves(ContextState&, Stream, const SeriesTermsPod&, const std::uint64_t*, std::size_t, unsigned, limb_t*,
                   limb_t*, limb_t*, std::size_t, std::size_t) {
  throw BackendUnavailable("mpgpu: series leaves on a CUDA context need the CUDA backend, which this build does not have");
}
void instance_records(ContextState&, Stream, const limb_t*, std::size_t, std::size_t, std::size_t, bool,
                      std::uint64_t*) {
  throw BackendUnavailable("mpgpu: batch instances on a CUDA context need the CUDA backend, which this build does not have");
}
void write_magnitudes(ContextState&, Stream, const limb_t*, std::size_t, std::size_t, std::size_t,
                      const std::uint64_t*, limb_t* const*) {
  throw BackendUnavailable("mpgpu: batch instances on a CUDA context need the CUDA backend, which this build does not have");
}

}  // namespace mpgpu::detail::batch::cuda

namespace mpgpu::detail::dot_cuda {

// Dot and matrix products mod p on a CUDA context (src/dot/dot_backend.hpp).
BadElement dot(ContextState&, Stream, const DotArgs&, std::uint64_t*, std::uint64_t*) {
  throw BackendUnavailable("mpgpu: dot products on a CUDA context need the CUDA backend, which this build does not have");
}
BadElement check_matrix(ContextState&, Stream, dot::Residue, const void*, std::size_t, std::size_t, std::size_t,
                        std::uint64_t) {
  throw BackendUnavailable("mpgpu: matrix products on a CUDA context need the CUDA backend, which this build does not have");
}
void matmul(ContextState&, Stream, const MatArgs&) {
  throw BackendUnavailable("mpgpu: matrix products on a CUDA context need the CUDA backend, which this build does not have");
}

}  // namespace mpgpu::detail::dot_cuda

namespace mpgpu::distributed {
std::unique_ptr<PartSteps> make_cuda_part_steps(const std::vector<Context>&, CudaPartStepsOptions) {
  throw BackendUnavailable("mpgpu: the distributed product on CUDA parts needs the CUDA backend, which this build does not have");
}
}  // namespace mpgpu::distributed
