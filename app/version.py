"""The service's one version: the package's, the contract's (`info.version` of openapi/openapi.json),
and the one every snapshot records as what computed it. It follows the contract by semantic
versioning: a change a client must follow raises the major number, a field or operation added the
minor one, a fix the patch; docs/changelog.md says what each version changed for a client."""

VERSION = "2.3.0"
