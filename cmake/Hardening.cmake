# Sanitizer and fuzzing builds (issue #19). Both act through rubric_common, so every target of
# the project (core, ui, app, tests) is compiled and linked with the same instrumentation.
#
#   -DRUBRIC_SANITIZE=address,undefined   ASan + UBSan (any UBSan finding aborts the test)
#   -DRUBRIC_SANITIZE=thread              TSan
#   -DRUBRIC_FUZZ=ON                      libFuzzer targets in tests/fuzz (clang only), with ASan + UBSan
#
# scripts/sanitize.sh and scripts/fuzz.sh configure their own build folders with these.

if(RUBRIC_SANITIZE)
  string(REPLACE "," ";" _rubric_sanitizers "${RUBRIC_SANITIZE}")
  foreach(_s IN LISTS _rubric_sanitizers)
    if(NOT _s MATCHES "^(address|undefined|thread|leak)$")
      message(FATAL_ERROR "RUBRIC_SANITIZE: unknown sanitizer '${_s}' (use address,undefined or thread)")
    endif()
  endforeach()
  if("thread" IN_LIST _rubric_sanitizers AND "address" IN_LIST _rubric_sanitizers)
    message(FATAL_ERROR "RUBRIC_SANITIZE: thread cannot be combined with address")
  endif()
  if(RUBRIC_FUZZ)
    message(FATAL_ERROR "RUBRIC_FUZZ already builds with address,undefined; leave RUBRIC_SANITIZE empty")
  endif()
  set(_rubric_san_flags -fsanitize=${RUBRIC_SANITIZE} -fno-omit-frame-pointer)
  if("undefined" IN_LIST _rubric_sanitizers)
    # A finding fails the test instead of scrolling past in its output.
    list(APPEND _rubric_san_flags -fno-sanitize-recover=undefined)
  endif()
  target_compile_options(rubric_common INTERFACE ${_rubric_san_flags})
  target_link_options(rubric_common INTERFACE -fsanitize=${RUBRIC_SANITIZE})
  message(STATUS "Rubric: sanitizers ${RUBRIC_SANITIZE}")
endif()

if(RUBRIC_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "RUBRIC_FUZZ needs clang with libFuzzer: configure with -DCMAKE_CXX_COMPILER=clang++-14")
  endif()
  # Coverage for the fuzzer in every library; the fuzz executables add -fsanitize=fuzzer (main).
  target_compile_options(rubric_common INTERFACE -fsanitize=fuzzer-no-link,address,undefined
                                                 -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  target_link_options(rubric_common INTERFACE -fsanitize=address,undefined)
  message(STATUS "Rubric: libFuzzer targets with address,undefined")
endif()
