#include "distributed/nccl_communicator.hpp"

#include <cuda_runtime.h>
#include <nccl.h>

#include <set>
#include <string>

#include "mpgpu/error.hpp"

namespace mpgpu::distributed {

namespace {

void nccl_check(ncclResult_t r, const char* call) {
  if (r != ncclSuccess) throw Error(std::string("NcclCommunicator: ") + call + ": " + ncclGetErrorString(r));
}

}  // namespace

NcclCommunicator::NcclCommunicator(std::vector<Context> parts) : parts_(std::move(parts)) {
  if (parts_.empty()) throw InvalidArgument("NcclCommunicator: no parts");
  std::vector<int> devices;
  std::set<int> seen;
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    if (!parts_[i].is_cuda())
      throw InvalidArgument("NcclCommunicator: part " + std::to_string(i) + " is not a CUDA context");
    const int d = parts_[i].device();
    if (!seen.insert(d).second)
      throw InvalidArgument("NcclCommunicator: device " + std::to_string(d) + " is listed twice");
    devices.push_back(d);
  }
  comms_.assign(parts_.size(), nullptr);
  nccl_check(ncclCommInitAll(comms_.data(), static_cast<int>(devices.size()), devices.data()), "ncclCommInitAll");
}

NcclCommunicator::~NcclCommunicator() {
  for (ncclComm* c : comms_)
    if (c != nullptr) ncclCommDestroy(c);
}

void NcclCommunicator::all_to_all(const std::vector<std::vector<SendBlock>>& send,
                                  const std::vector<std::vector<RecvBlock>>& recv) {
  const std::size_t G = parts_.size();
  check_all_to_all(G, send, recv);
  nccl_check(ncclGroupStart(), "ncclGroupStart");
  try {
    for (std::size_t i = 0; i < G; ++i) {
      cudaStream_t s = parts_[i].stream();
      for (std::size_t j = 0; j < G; ++j) {
        if (send[i][j].count != 0)
          nccl_check(ncclSend(send[i][j].data, send[i][j].count, ncclUint64, static_cast<int>(j), comms_[i], s),
                     "ncclSend");
        if (recv[i][j].count != 0)
          nccl_check(ncclRecv(recv[i][j].data, recv[i][j].count, ncclUint64, static_cast<int>(j), comms_[i], s),
                     "ncclRecv");
      }
    }
  } catch (...) {
    ncclGroupEnd();
    throw;
  }
  nccl_check(ncclGroupEnd(), "ncclGroupEnd");
}

}  // namespace mpgpu::distributed
