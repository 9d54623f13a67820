// GRBCUDA_TEST_INTERNAL
// test_trips.c — the residency cache's return trips of host values
// (src/residency/newest.c, issue 23), on the CPU: how often a vector's
// values that a host call wrote went up to the device before the host wrote
// it again (gcu_residency_trip_share, the share of its upload auto mode
// charges a host call that writes it; the GPU side, predict.c's charge, is
// tests/gpu/test_vector_gpu.c's (g)):
//  - a handle never seen, or one whose first value has not ended: 0;
//  - a value gone up ends 1, one written over ends 0, a running mean of
//    each end weighing a quarter; an upload with no host value pending
//    (the device's own result, a second upload of one value) counts nothing;
//  - handles apart keep their own; a new object at an address (the
//    creators' hook, gcu_residency_born) forgets the address's trips.
#include "gcu_test.h"
#include "residency/gcu_residency.h"
#include <math.h>

static bool near (double x, double want) { return fabs (x - want) < 1e-6 ; }

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    GrB_Vector v, w ;
    OK (GrB_Vector_new (&v, GrB_FP32, 100)) ;
    OK (GrB_Vector_new (&w, GrB_FP32, 100)) ;
    CHECK (gcu_residency_trip_share (v) == 0, "never seen: 0") ;
    gcu_residency_trip_up (v) ;
    CHECK (gcu_residency_trip_share (v) == 0, "an upload with no host value pending: nothing") ;
    gcu_residency_trip_host (v) ;
    CHECK (gcu_residency_trip_share (v) == 0, "a first host value not ended yet: 0") ;
    gcu_residency_trip_up (v) ;
    CHECK (near (gcu_residency_trip_share (v), 1), "gone up: %g", gcu_residency_trip_share (v)) ;
    gcu_residency_trip_up (v) ;
    CHECK (near (gcu_residency_trip_share (v), 1), "uploaded again, no new host value: %g",
        gcu_residency_trip_share (v)) ;
    // written over twice: the first value ends 0 (1 -> 0.75), the second pends
    gcu_residency_trip_host (v) ;
    gcu_residency_trip_host (v) ;
    CHECK (near (gcu_residency_trip_share (v), 0.75), "one value written over: %g, want 0.75",
        gcu_residency_trip_share (v)) ;
    gcu_residency_trip_up (v) ;
    CHECK (near (gcu_residency_trip_share (v), 0.8125), "then one gone up: %g, want 0.8125",
        gcu_residency_trip_share (v)) ;
    // a handle whose first value is written over starts at 0
    gcu_residency_trip_host (w) ;
    gcu_residency_trip_host (w) ;
    CHECK (gcu_residency_trip_share (w) == 0 && near (gcu_residency_trip_share (v), 0.8125),
        "w written over: 0, v's kept (%g, %g)", gcu_residency_trip_share (w), gcu_residency_trip_share (v)) ;
    // a new object at v's address forgets v's trips; a wrapped creator there does too
    const void *old = v ;
    OK (GrB_Vector_free (&v)) ;
    CHECK (near (gcu_residency_trip_share (old), 0.8125), "a freed object's trips stay until one is made there") ;
    OK (GrB_Vector_new (&v, GrB_FP32, 100)) ;
    if ((const void *) v != old) gcu_residency_born (old) ;
    CHECK (gcu_residency_trip_share (old) == 0, "born: the address's trips forgotten (%s)",
        (const void *) v == old ? "GrB_Vector_new reused it" : "called directly") ;
    GrB_Vector_free (&v) ;
    GrB_Vector_free (&w) ;
    GrB_finalize () ;
    return gcu_test_report ("test_trips") ;
}
