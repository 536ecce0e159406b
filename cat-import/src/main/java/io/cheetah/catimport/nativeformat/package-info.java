/**
 * CAT's native report format, as unidal's code generator writes it for every report model
 * ({@code DefaultNativeBuilder}) and reads it ({@code DefaultNativeParser}): bytes to a
 * {@link io.cheetah.catimport.nativeformat.CatNode} tree.
 * <pre>
 *   byte[] ──▶ NativeInput (tag, varint, int, double, date, UTF, counts checked against the bytes left)
 *                 │
 *                 ▼
 *          NativeDecoder ◀── NativeSchema (field number ─▶ name, FieldType, child entity; per report kind)
 *                 │
 *                 ▼
 *              CatNode (immutable: attributes, text elements, dynamic attributes, children)
 * </pre>
 * Damage never costs more than the blob's size: every count must fit in the bytes left, varints stop at 10 bytes,
 * nesting at {@link io.cheetah.catimport.nativeformat.NativeDecoder#MAX_DEPTH}; whatever does not decode is a
 * {@link io.cheetah.catimport.nativeformat.NativeFormatException} naming the offset and the reason.
 */
package io.cheetah.catimport.nativeformat;
