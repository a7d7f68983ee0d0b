# tessel: the two Quick start commands (make demo, make check) and their helpers. Each target
# installs the Debian/Ubuntu packages that are missing (apt-get, as root or through sudo), then
# configures and builds with CMake.
BUILD      ?= build
CHECK_DIR  ?= build-check
DEB_DIR    ?= build-deb
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX     ?= /usr/local
# Real dependencies: compiler and CMake, the OpenCL headers and ICD loader, PoCL (the CPU OpenCL
# device), OpenBLAS (the CPU reference and peer), CLBlast (the OpenCL peer), clinfo, python3
# (the CLI tests parse JSON with it), gnuplot-nox (the figures of `tessel study`); for the drop-in
# BLAS's tests: the reference BLAS testers (libblas-test), reference LAPACK (liblapack3) and its
# test programs (liblapack-test), numpy
# with pytest and hypothesis (its test suite's needs); for the Debian package (make deb):
# dpkg-dev (dpkg-shlibdeps, which gives its Depends).
PACKAGES   := build-essential cmake pkg-config ocl-icd-opencl-dev opencl-headers pocl-opencl-icd \
              libopenblas-dev libclblast-dev clinfo python3 gnuplot-nox \
              libopenmpi-dev openmpi-bin \
              libblas-test liblapack3 liblapack-test python3-numpy python3-pytest python3-hypothesis oclgrind \
              dpkg-dev
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build demo check check-full check-build install deb clean

all: build

deps:
	@missing=$$(for p in $(PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  if ! command -v apt-get >/dev/null; then echo "tessel: error: missing packages ($$missing) and no apt-get: install them by hand" >&2; exit 1; fi; \
	  echo "installing:" $$missing; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing </dev/null; \
	fi

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX)
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/tessel devices
	$(BUILD)/tessel gemm --variant all --size 512 --verify --peers clblast,openblas

# The test suite, on the default device (PoCL without a GPU), built with warnings as errors and
# run under AddressSanitizer and UndefinedBehaviorSanitizer. `check` runs every test but those
# labelled `full` (exhaustive sweeps whose code paths the others already cover), most kernels
# compiled by PoCL without optimization (KERNEL_FLAGS: compile time is most of a cold run);
# `check-full` runs everything, the sweeps included, with every kernel compiled as a user's
# program compiles it. The test build is configured with Debian's layout (prefix /usr, so libdir
# lib/<triplet>), the one its test deb_package packages; the tests never install into the prefix.
KERNEL_FLAGS ?= -cl-opt-disable
check-full: KERNEL_FLAGS :=
check-build: deps
	cmake -S . -B $(CHECK_DIR) -DCMAKE_BUILD_TYPE=Debug -DTESSEL_SANITIZE=ON -DTESSEL_WERROR=ON \
	  -DCMAKE_INSTALL_PREFIX=/usr "-DTESSEL_TEST_KERNEL_FLAGS=$(KERNEL_FLAGS)"
	cmake --build $(CHECK_DIR) -j $(JOBS)

check: check-build
	cd $(CHECK_DIR) && ctest --output-on-failure -j $(JOBS) -LE full

check-full: check-build
	cd $(CHECK_DIR) && ctest --output-on-failure -j $(JOBS)

install: build
	$(SUDO) cmake --install $(BUILD)

# The Debian package (cmake/package.cmake): a release build with Debian's layout (prefix /usr,
# libdir lib/<triplet>) in its own folder, packaged by CPack as
# $(DEB_DIR)/tessel_<version>_<arch>.deb; `sudo apt install ./$(DEB_DIR)/tessel_*.deb` installs it,
# its drop-in then a libblas.so.3 and liblapack.so.3 alternative below OpenBLAS (README.md).
# Without the CUDA peers: a CUDA toolkit from NVIDIA's installer is no Debian package, and the
# command would not start where it is missing.
deb: deps
	cmake -S . -B $(DEB_DIR) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
	  -DTESSEL_BUILD_TESTS=OFF -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON
	cmake --build $(DEB_DIR) -j $(JOBS)
	cd $(DEB_DIR) && cpack -G DEB

clean:
	rm -rf $(BUILD) $(CHECK_DIR) $(DEB_DIR)
