# api.cmake — build step of the entry points (included by the top-level
# CMakeLists.txt, in its scope, after the grbcuda_obj, grbcuda and
# grbcuda_static targets exist): the wrappers of every GraphBLAS function that
# takes a matrix, vector or scalar, generated from the GraphBLAS.h the build
# uses (gen_wrappers.py: materialize a device-newest input, invalidate a
# changed output), checked against what the GraphBLAS library defines.
find_package(Python3 COMPONENTS Interpreter REQUIRED)

set(GRBCUDA_GEN_DIR ${PROJECT_BINARY_DIR}/generated)
set(GRBCUDA_WRAPPERS_C ${GRBCUDA_GEN_DIR}/gcu_wrappers.c)
set(GRBCUDA_WRAPPERS_LIST ${GRBCUDA_GEN_DIR}/gcu_wrappers.tsv)
# Hand-written entry points are not generated again (the generator reads
# their definitions from these files).
file(GLOB _gcu_api_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/api/*.c)
set(_gcu_nm ${CMAKE_NM})
if(NOT _gcu_nm)
  set(_gcu_nm nm)
endif()

add_custom_command(
  OUTPUT ${GRBCUDA_WRAPPERS_C} ${GRBCUDA_WRAPPERS_LIST}
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/gen_wrappers.py
          --header ${GRAPHBLAS_INCLUDE_DIR}/GraphBLAS.h
          --library ${GRAPHBLAS_LIBRARY}
          --nm ${_gcu_nm}
          --out-c ${GRBCUDA_WRAPPERS_C}
          --out-list ${GRBCUDA_WRAPPERS_LIST}
          --handwritten ${_gcu_api_sources}
  DEPENDS ${CMAKE_CURRENT_LIST_DIR}/gen_wrappers.py
          ${GRAPHBLAS_INCLUDE_DIR}/GraphBLAS.h ${GRAPHBLAS_LIBRARY} ${_gcu_api_sources}
  COMMENT "Generating the invalidation wrappers from ${GRAPHBLAS_INCLUDE_DIR}/GraphBLAS.h"
  VERBATIM)
target_sources(grbcuda_obj PRIVATE ${GRBCUDA_WRAPPERS_C})

