// gcu_sha256.h — SHA-256 (FIPS 180-4), for the JIT cache: the key of a
// compiled program and the checksum of a cache file. Collision resistance
// matters here: two programs with one key would silently share a kernel.
#ifndef GCU_SHA256_H
#define GCU_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct
{
    uint32_t h [8] ;
    uint64_t bytes ;
    uint8_t  block [64] ;
    size_t   fill ;
}
gcu_sha256 ;

void gcu_sha256_init   (gcu_sha256 *c) ;
void gcu_sha256_update (gcu_sha256 *c, const void *data, size_t n) ;
void gcu_sha256_final  (gcu_sha256 *c, uint8_t digest [32]) ;
void gcu_sha256_hex    (const uint8_t digest [32], char hex [65]) ;

#endif
