; PHP's definitions (core/outline.py). A namespace written `namespace App;` holds nothing: only one with a body
; is a module.
(function_definition name: (name) @name) @definition.function
(method_declaration name: (name) @name) @definition.method
(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(namespace_definition name: (namespace_name) @name body: (compound_statement)) @definition.module
