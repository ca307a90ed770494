package markers

import (
	"slices"
	"strings"
)

// form is how a known marker is written.
type form int

const (
	unknown form = iota
	flag         // +name
	value        // +name=value
	args         // +name:arg=value,arg=value
)

// Names of the markers kubewire-gen reads. See Known for the whole table.
const (
	GroupName   = "groupName"
	VersionName = "versionName"

	ObjectRoot       = "kubebuilder:object:root"
	ObjectGenerate   = "kubebuilder:object:generate"
	Skip             = "kubebuilder:skip"
	Resource         = "kubebuilder:resource"
	SubresourceStat  = "kubebuilder:subresource:status"
	SubresourceScale = "kubebuilder:subresource:scale"
	PrintColumn      = "kubebuilder:printcolumn"
	StorageVersion   = "kubebuilder:storageversion"
	UnservedVersion  = "kubebuilder:unservedversion"
	DeprecatedVer    = "kubebuilder:deprecatedversion"
	SkipVersion      = "kubebuilder:skipversion"
	SelectableField  = "kubebuilder:selectablefield"
	RBAC             = "kubebuilder:rbac" // a rule of the program's role (package rbac)

	Optional  = "optional"
	Required  = "required"
	Nullable  = "nullable"
	Default   = "default"
	Enum      = "enum"
	ListType  = "listType"
	ListKey   = "listMapKey"
	MapType   = "mapType"
	StructTyp = "structType"

	KBOptional  = "kubebuilder:validation:Optional"
	KBRequired  = "kubebuilder:validation:Required"
	KBNullable  = "kubebuilder:validation:Nullable"
	KBDefault   = "kubebuilder:default"
	KBExample   = "kubebuilder:example"
	KBTitle     = "kubebuilder:title"
	Preserve    = "kubebuilder:pruning:PreserveUnknownFields"
	XPreserve   = "kubebuilder:validation:XPreserveUnknownFields"
	Embedded    = "kubebuilder:validation:EmbeddedResource"
	XEmbedded   = "kubebuilder:validation:XEmbeddedResource"
	XIntOrStr   = "kubebuilder:validation:XIntOrString"
	Schemaless  = "kubebuilder:validation:Schemaless"
	XValidation = "kubebuilder:validation:XValidation"

	Minimum       = "kubebuilder:validation:Minimum"
	Maximum       = "kubebuilder:validation:Maximum"
	ExclusiveMin  = "kubebuilder:validation:ExclusiveMinimum"
	ExclusiveMax  = "kubebuilder:validation:ExclusiveMaximum"
	MultipleOf    = "kubebuilder:validation:MultipleOf"
	MinLength     = "kubebuilder:validation:MinLength"
	MaxLength     = "kubebuilder:validation:MaxLength"
	Pattern       = "kubebuilder:validation:Pattern"
	MinItems      = "kubebuilder:validation:MinItems"
	MaxItems      = "kubebuilder:validation:MaxItems"
	UniqueItems   = "kubebuilder:validation:UniqueItems"
	MinProperties = "kubebuilder:validation:MinProperties"
	MaxProperties = "kubebuilder:validation:MaxProperties"
	KBEnum        = "kubebuilder:validation:Enum"
	Format        = "kubebuilder:validation:Format"
	Type          = "kubebuilder:validation:Type"

	// ItemsPrefix, put before a validation marker's last segment
	// ("kubebuilder:validation:items:MaxLength"), applies it to the
	// items of a list rather than to the list.
	ItemsPrefix = "kubebuilder:validation:items:"
)

// isItemValidation reports whether a validation marker also exists with
// the items: prefix.
func isItemValidation(last string) bool {
	switch last {
	case "Minimum", "Maximum", "ExclusiveMinimum", "ExclusiveMaximum", "MultipleOf",
		"MinLength", "MaxLength", "Pattern", "MinItems", "MaxItems", "UniqueItems",
		"MinProperties", "MaxProperties", "Enum", "Format", "Type", "Nullable",
		"XValidation", "XIntOrString", "XEmbeddedResource", "XPreserveUnknownFields":
		return true
	}
	return false
}

// formOf says how the marker name is written, or unknown.
func formOf(name string) form {
	if f := webhookForm(name); f != unknown {
		return f
	}
	switch name {
	case ObjectRoot, Skip, SubresourceStat, StorageVersion, UnservedVersion, SkipVersion,
		Optional, Required, Nullable, Enum,
		KBOptional, KBRequired, KBNullable, Preserve, XPreserve, Embedded, XEmbedded,
		XIntOrStr, Schemaless, ExclusiveMin, ExclusiveMax, UniqueItems:
		return flag
	case GroupName, VersionName, ObjectGenerate, Default, ListType, ListKey, MapType, StructTyp,
		KBDefault, KBExample, KBTitle,
		Minimum, Maximum, MultipleOf, MinLength, MaxLength, Pattern, MinItems, MaxItems,
		MinProperties, MaxProperties, KBEnum, Format, Type:
		return value
	case Resource, SubresourceScale, PrintColumn, DeprecatedVer, SelectableField, XValidation, RBAC:
		return args
	}
	if last, ok := strings.CutPrefix(name, ItemsPrefix); ok && isItemValidation(last) {
		return formOf("kubebuilder:validation:" + last)
	}
	return unknown
}

// Known returns the names of every marker Parse recognises, sorted.
// Every name that starts with "kubebuilder:" may be written with
// "kubewire:" instead.
func Known() []string {
	names := []string{
		GroupName, VersionName, ObjectRoot, ObjectGenerate, Skip, Resource, SubresourceStat,
		SubresourceScale, PrintColumn, StorageVersion, UnservedVersion, DeprecatedVer,
		SkipVersion, SelectableField, Optional, Required, Nullable, Default, Enum, ListType,
		ListKey, MapType, StructTyp, KBOptional, KBRequired, KBNullable, KBDefault, KBExample,
		KBTitle, Preserve, XPreserve, Embedded, XEmbedded, XIntOrStr, Schemaless, XValidation,
		Minimum, Maximum, ExclusiveMin, ExclusiveMax, MultipleOf, MinLength, MaxLength,
		Pattern, MinItems, MaxItems, UniqueItems, MinProperties, MaxProperties, KBEnum,
		Format, Type, RBAC,
	}
	names = append(names, webhookNames()...)
	for _, n := range names {
		if last, ok := strings.CutPrefix(n, "kubebuilder:validation:"); ok && isItemValidation(last) {
			names = append(names, ItemsPrefix+last)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}
