/**
 * Codec benchmarks: decoding and encoding std trees in NT1 and PT1 (figures in {@code benchmarks/notes/codec.md}).
 */
package io.cheetah.bench.codec;
