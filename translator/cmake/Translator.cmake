# Translator.cmake -- translate pragma-marked sources at build time.
#
#   find_program(TRANSLATOR_EXECUTABLE translate)
#   if(NOT TRANSLATOR_EXECUTABLE)
#     message(FATAL_ERROR "translate not found: install it or set TRANSLATOR_EXECUTABLE")
#   endif()
#   execute_process(COMMAND "${TRANSLATOR_EXECUTABLE}" --cmake-dir
#                   OUTPUT_VARIABLE TRANSLATOR_CMAKE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)
#   include("${TRANSLATOR_CMAKE_DIR}/Translator.cmake")
#   add_executable(prog main.f90 ops.f90 caxpy.c)
#   translator_offload(prog SOURCES ops.f90 caxpy.c [FLAGS -Werror --report ...])
#
# translator_offload(<target> SOURCES <files>... [FLAGS <translate options>...])
#   Each source is translated into ${CMAKE_CURRENT_BINARY_DIR}/translate/<target>/<folder>/
#   (<folder>: the source's folder below the current source folder) when it (or
#   a file it includes, or the translator) changes; the target compiles the rewritten source
#   (with the original's directory on its include path) and the host glue instead of the
#   original, and links the runtime (target translator_runtime) and OpenCL.  The target's
#   compile definitions and include directories reach the translator as -D/-I.  The sources
#   may or may not already be listed in the target.
#
# Variables: TRANSLATOR_EXECUTABLE (the translate command; found on PATH if unset).
# Needs CMake 3.13; dependency files (DEPFILE) are used with Ninja, and with Makefile
# generators from CMake 3.20.  The project must enable C (the glue and runtime are C).

if(CMAKE_VERSION VERSION_LESS 3.13)
  message(FATAL_ERROR "Translator.cmake needs CMake 3.13 or newer")
endif()
include_guard(GLOBAL)
# CMP0116 NEW: CMake rewrites the paths of DEPFILEs for Ninja, so absolute paths work (the
# functions below record this setting when they are defined).
if(POLICY CMP0116)
  cmake_policy(SET CMP0116 NEW)
endif()

set(TRANSLATOR_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")
get_filename_component(TRANSLATOR_RUNTIME_DIR "${CMAKE_CURRENT_LIST_DIR}/../runtime" ABSOLUTE)
if(NOT TRANSLATOR_EXECUTABLE)
  find_program(TRANSLATOR_EXECUTABLE translate)
endif()
if(NOT TRANSLATOR_EXECUTABLE)
  message(FATAL_ERROR "translate not found: put it on PATH or set TRANSLATOR_EXECUTABLE")
endif()
find_package(OpenCL REQUIRED)

function(_translator_runtime)
  if(TARGET translator_runtime)
    return()
  endif()
  add_library(translator_runtime STATIC "${TRANSLATOR_RUNTIME_DIR}/translate_rt.c")
  target_include_directories(translator_runtime PUBLIC "${TRANSLATOR_RUNTIME_DIR}")
  target_link_libraries(translator_runtime PUBLIC OpenCL::OpenCL)
  set_target_properties(translator_runtime PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()

function(_translator_depfile_supported out)
  set(ok FALSE)
  if(CMAKE_GENERATOR MATCHES "Ninja" OR NOT CMAKE_VERSION VERSION_LESS 3.20)
    set(ok TRUE)
  endif()
  set(${out} ${ok} PARENT_SCOPE)
endfunction()

# The output folder of the sources in `srcdir`: its path below the source tree (so that
# same-named sources of different folders do not collide), or a hash for a folder outside it.
function(_translator_outdir out topdir srcdir)
  file(RELATIVE_PATH rel "${CMAKE_CURRENT_SOURCE_DIR}" "${srcdir}")
  if(rel MATCHES "^\\.\\.(/|$)" OR IS_ABSOLUTE "${rel}")
    string(MD5 hash "${srcdir}")
    string(SUBSTRING "${hash}" 0 8 hash)
    set(rel "_outside/${hash}")
  endif()
  if(rel STREQUAL "")
    set(${out} "${topdir}" PARENT_SCOPE)
  else()
    set(${out} "${topdir}/${rel}" PARENT_SCOPE)
  endif()
endfunction()

function(translator_offload target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES;FLAGS")
  if(NOT TARGET ${target})
    message(FATAL_ERROR "translator_offload: ${target} is not a target")
  endif()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "C" IN_LIST languages)
    message(FATAL_ERROR "translator_offload: enable C in project() (glue and runtime are C)")
  endif()
  _translator_runtime()
  _translator_depfile_supported(use_depfile)
  set(topdir "${CMAKE_CURRENT_BINARY_DIR}/translate/${target}")
  set(seen_outputs "")
  set(defs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(incs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  get_target_property(target_sources ${target} SOURCES)
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(name "${abs}" NAME)
    get_filename_component(stem "${abs}" NAME_WE)
    get_filename_component(srcdir "${abs}" DIRECTORY)
    _translator_outdir(outdir "${topdir}" "${srcdir}")
    # two sources whose outputs would be the same files (heat.f90 and heat.c in one folder)
    foreach(out IN ITEMS "${outdir}/${name}" "${outdir}/${stem}.host.c")
      if("${out}" IN_LIST seen_outputs)
        message(FATAL_ERROR "translator_offload(${target}): ${src} and another source would "
                "both write ${out}: rename one of them")
      endif()
      list(APPEND seen_outputs "${out}")
    endforeach()
    set(rewritten "${outdir}/${name}")
    set(hostc "${outdir}/${stem}.host.c")
    set(stamp "${outdir}/${name}.stamp")
    set(depargs "")
    set(depfile_kw "")
    if(use_depfile)
      set(dep_target "${stamp}")
      if(NOT POLICY CMP0116)   # old CMake with Ninja: the target as Ninja names it
        file(RELATIVE_PATH dep_target "${CMAKE_BINARY_DIR}" "${stamp}")
      endif()
      set(depargs -MD -MP -MF "${stamp}.d" -MT "${dep_target}")
      set(depfile_kw DEPFILE "${stamp}.d")
    endif()
    # translate rewrites an output only when its text changes; the stamp records the run,
    # so unchanged outputs keep their time and what is compiled from them is not rebuilt
    add_custom_command(
      OUTPUT "${stamp}"
      BYPRODUCTS "${rewritten}" "${hostc}" "${outdir}/${stem}.cl"
      COMMAND "${TRANSLATOR_EXECUTABLE}" "${abs}" -o "${outdir}" --all-outputs
              --unique-symbols ${depargs}
              "$<$<BOOL:${defs}>:-D$<JOIN:${defs},;-D>>"
              "$<$<BOOL:${incs}>:-I$<JOIN:${incs},;-I>>"
              ${ARG_FLAGS}
      COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
      DEPENDS "${abs}"
      ${depfile_kw}
      COMMENT "Translating ${src}"
      COMMAND_EXPAND_LISTS VERBATIM)
    list(REMOVE_ITEM target_sources "${src}" "${abs}")
    list(APPEND target_sources "${rewritten}" "${hostc}" "${stamp}")
    set_source_files_properties("${rewritten}" PROPERTIES INCLUDE_DIRECTORIES "${srcdir}")
  endforeach()
  set_property(TARGET ${target} PROPERTY SOURCES ${target_sources})
  target_link_libraries(${target} PRIVATE translator_runtime)
endfunction()
