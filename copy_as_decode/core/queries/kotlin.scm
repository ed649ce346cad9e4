; Kotlin's definitions (core/outline.py): classes, interfaces and enums are class_declaration; objects too.
(class_declaration name: (identifier) @name) @definition.class
(object_declaration name: (identifier) @name) @definition.class
(function_declaration name: (identifier) @name) @definition.function
(secondary_constructor "constructor" @name) @definition.method
