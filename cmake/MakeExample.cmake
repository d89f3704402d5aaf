# Builds the example project template from the shipped SummEval file with the rubric CLI.
# Usage: cmake -DRUBRIC=... -DDATA=... -DOUT=... -P MakeExample.cmake
# Writes to a temporary file first so a failed step never leaves a half-built project behind.
# OUT is the template only (replaced on every run); users work in their own copy of it
# (core/store/ExampleProject), which no build touches.
set(tmp "${OUT}.tmp")
file(REMOVE "${tmp}" "${tmp}-wal" "${tmp}-shm")
get_filename_component(dir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")

function(step)
  execute_process(COMMAND "${RUBRIC}" ${ARGV} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    file(REMOVE "${tmp}" "${tmp}-wal" "${tmp}-shm")
    message(FATAL_ERROR "example project: 'rubric ${ARGV}' failed (${rc}): ${err}")
  endif()
endfunction()

step(import "${DATA}" --project "${tmp}" --preset summeval)
step(split --project "${tmp}" --train 30 --seed 2026 --stratify group)
if(EXTRA_STEP)
  step(${EXTRA_STEP} --project "${tmp}")
endif()
file(REMOVE "${OUT}" "${OUT}-wal" "${OUT}-shm")
file(RENAME "${tmp}" "${OUT}")
