// A template copied as a resource, not compiled.
let name = "{{name}}"
