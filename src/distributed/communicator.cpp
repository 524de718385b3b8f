#include "distributed/communicator.hpp"

#include <cstring>
#include <string>

#include "mpgpu/error.hpp"

namespace mpgpu::distributed {

void check_all_to_all(std::size_t parts, const std::vector<std::vector<SendBlock>>& send,
                      const std::vector<std::vector<RecvBlock>>& recv) {
  const std::string where = "all_to_all: ";
  if (send.size() != parts || recv.size() != parts)
    throw InvalidArgument(where + "want " + std::to_string(parts) + " rows of blocks, got " +
                          std::to_string(send.size()) + " to send and " + std::to_string(recv.size()) + " to receive");
  for (std::size_t i = 0; i < parts; ++i)
    if (send[i].size() != parts || recv[i].size() != parts)
      throw InvalidArgument(where + "part " + std::to_string(i) + " names " + std::to_string(send[i].size()) +
                            " send and " + std::to_string(recv[i].size()) + " receive blocks, want " +
                            std::to_string(parts));
  for (std::size_t i = 0; i < parts; ++i)
    for (std::size_t j = 0; j < parts; ++j) {
      const SendBlock& s = send[i][j];
      const RecvBlock& r = recv[j][i];
      if (s.count != r.count)
        throw InvalidArgument(where + "part " + std::to_string(i) + " sends " + std::to_string(s.count) +
                              " words to part " + std::to_string(j) + ", which expects " + std::to_string(r.count));
      if (s.count != 0 && (s.data == nullptr || r.data == nullptr))
        throw InvalidArgument(where + "a null buffer between parts " + std::to_string(i) + " and " +
                              std::to_string(j));
    }
}

HostCommunicator::HostCommunicator(std::size_t parts) : parts_(parts) {
  if (parts == 0) throw InvalidArgument("HostCommunicator: no parts");
}

void HostCommunicator::all_to_all(const std::vector<std::vector<SendBlock>>& send,
                                  const std::vector<std::vector<RecvBlock>>& recv) {
  check_all_to_all(parts_, send, recv);
  for (std::size_t i = 0; i < parts_; ++i)
    for (std::size_t j = 0; j < parts_; ++j)
      if (send[i][j].count != 0)
        std::memcpy(recv[j][i].data, send[i][j].data, send[i][j].count * sizeof(std::uint64_t));
}

}  // namespace mpgpu::distributed
