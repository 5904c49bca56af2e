# The README's two commands. Each installs what is missing (Debian packages), builds, and runs.
#   make bench   the main job: machine, quick probe, a short GEMM sweep against the peer libraries
#   make test    the whole test suite (GoogleTest through CTest)

# pkgconf: the packaging test also builds an example with pkg-config, as a user would;
# libblas-dev: the LD_PRELOAD test runs a program built against the reference BLAS on ridge;
# libblas-test: the reference BLAS's own test programs run on ridge the same way;
# qemu-user: the kernel tests also run on an emulated CPU without AVX-512 (qemu-x86_64).
BUILD_PACKAGES := cmake g++ make googletest libgtest-dev libgmock-dev libcli11-dev \
  nlohmann-json3-dev pkgconf libblas-dev libblas-test qemu-user
PEER_PACKAGES := libopenblas0-pthread libblis4-openmp libdnnl2
RIDGE := build/release/tools/ridge/ridge

.PHONY: deps peers build bench test asan-test

# Installs only what dpkg does not already have, so a ready machine needs no network.
define apt_install
	@missing=$$(for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

deps:
	$(call apt_install,$(BUILD_PACKAGES))

peers:
	$(call apt_install,$(PEER_PACKAGES))

build: deps
	cmake --preset release >/dev/null
	cmake --build build/release -j$$(nproc)

bench: build peers
	$(RIDGE) info
	$(RIDGE) probe --quick --save
	$(RIDGE) tune --quick
	$(RIDGE) bench gemm --threads 1 --runs 5 --vs openblas --vs blis --vs onednn \
	  --shapes 64x64x64,256x256x256,1024x1024x1024,8x4096x4096,1000x1000x1000

test: build
	cd build/release && ctest --output-on-failure

asan-test: deps
	cmake --preset asan >/dev/null
	cmake --build build/asan -j$$(nproc)
	cd build/asan && ctest --output-on-failure
