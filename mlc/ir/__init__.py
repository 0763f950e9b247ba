"""The IR: values, operations, blocks, regions, types, attributes, affine maps, op definitions."""
