# export.cmake — build step of the export (included by the top-level
# CMakeLists.txt, in its scope, after the library's targets exist): OpenMP
# for the parallel conversions, when the compiler has it.
find_package(OpenMP COMPONENTS C)
if(OpenMP_C_FOUND)
  target_link_libraries(grbcuda_obj PRIVATE OpenMP::OpenMP_C)
  target_link_libraries(grbcuda PRIVATE OpenMP::OpenMP_C)
  target_link_libraries(grbcuda_static PUBLIC OpenMP::OpenMP_C)
endif()
