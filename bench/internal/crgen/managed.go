package crgen

import (
	"fmt"
	"strconv"
)

// managed is a Crossplane RDS Instance as provider-aws-rds (upjet) keeps
// it, composed for a claim and provisioned: every parameter mirrored in
// status.atProvider with what AWS reports, Crossplane's three
// conditions, tags and tagsAll, the composition's annotations, owned by
// its composite (whose uid is in the composition's managedFields entry).
// Cluster-scoped. Engines, classes and windows come from small sets; the
// names, endpoints, ARNs and resource ids are its own.
func managed(i int) map[string]any {
	team := fmt.Sprintf("team-%d", i%20)
	claim := fmt.Sprintf("orders-db-%d", i)
	xr := fmt.Sprintf("%s-%05x", claim, i*7919%0xfffff)
	name := fmt.Sprintf("%s-%05x", xr, i*104729%0xfffff)
	owner := uid(2, i)
	class := []string{"db.t3.medium", "db.r6g.large", "db.m6g.xlarge"}[i%3]
	version := []string{"16.3", "15.7"}[i%2]
	storage := []int64{20, 50, 100}[i%3]
	az := "us-east-1" + string(rune('a'+i%3))
	created := i % 10000
	address := name + ".c9akciq32xyz.us-east-1.rds.amazonaws.com"
	tags := map[string]any{
		"crossplane-kind": "instance.rds.aws.upbound.io", "crossplane-name": name, "crossplane-providerconfig": "default",
		"team": team, "environment": "prod", "cost-center": "cc-" + strconv.Itoa(1000+i%20),
	}
	tagsAll := map[string]any{"managed-by": "crossplane"}
	for k, v := range tags {
		tagsAll[k] = v
	}
	meta := map[string]any{
		"name": name,
		"labels": map[string]any{
			"crossplane.io/claim-name": claim, "crossplane.io/claim-namespace": Namespaces()[i%20], "crossplane.io/composite": xr,
		},
		"annotations": map[string]any{
			"crossplane.io/composition-resource-name":     "rds-instance",
			"crossplane.io/external-name":                 name,
			"crossplane.io/external-create-pending":       stamp(created),
			"crossplane.io/external-create-succeeded":     stamp(created + 1),
			"upjet.crossplane.io/provider-meta":           `{"e2bfb730-ecaa-11e6-8f88-34363bc7c4c0":{"create":2400000000000,"delete":3600000000000,"update":4800000000000},"schema_version":"2"}`,
			"crossplane.io/paused":                        "false",
			"kubectl.kubernetes.io/last-applied-revision": strconv.Itoa(1 + i%3),
		},
		// Crossplane's is "finalizer.managedresource.crossplane.io", which
		// kube-apiserver accepts on custom resources with a warning; the
		// fake refuses it, so the bench uses a qualified name of the same
		// length.
		"finalizers": []any{"managedresource.crossplane.io/finalizer"},
		"ownerReferences": []any{map[string]any{"apiVersion": "database.example.org/v1alpha1", "kind": "XPostgreSQLInstance", "name": xr,
			"uid": owner, "controller": true, "blockOwnerDeletion": true}},
	}
	params := map[string]any{
		"allocatedStorage": storage, "autoGeneratePassword": true, "autoMinorVersionUpgrade": true,
		"backupRetentionPeriod": int64(7), "backupWindow": "03:00-04:00", "dbName": "orders",
		"dbSubnetGroupName": "db-subnets-" + team, "deleteAutomatedBackups": true, "engine": "postgres", "engineVersion": version,
		"instanceClass": class, "maintenanceWindow": "Mon:00:00-Mon:03:00", "multiAz": i%4 == 0, "publiclyAccessible": false,
		"passwordSecretRef": map[string]any{"key": "password", "name": name + "-password", "namespace": "crossplane-system"},
		"region":            "us-east-1", "skipFinalSnapshot": true, "storageEncrypted": true, "storageType": "gp3",
		"tags": tags, "username": "orders_admin",
		"vpcSecurityGroupIdRefs":       []any{map[string]any{"name": "db-sg-" + team}},
		"vpcSecurityGroupIds":          []any{fmt.Sprintf("sg-0%016x", i%20*0x1f2e3d4c5b6a)},
		"enabledCloudwatchLogsExports": []any{"postgresql", "upgrade"},
	}
	spec := map[string]any{
		"deletionPolicy": "Delete", "managementPolicies": []any{"*"},
		"providerConfigRef":          map[string]any{"name": "default"},
		"writeConnectionSecretToRef": map[string]any{"name": owner, "namespace": "crossplane-system"},
		"forProvider":                params,
		"initProvider":               map[string]any{},
	}
	atProvider := map[string]any{
		"address": address, "allocatedStorage": storage, "arn": "arn:aws:rds:us-east-1:123456789012:db:" + name,
		"autoMinorVersionUpgrade": true, "availabilityZone": az, "backupRetentionPeriod": int64(7), "backupWindow": "03:00-04:00",
		"caCertIdentifier": "rds-ca-rsa2048-g1", "copyTagsToSnapshot": false, "dbName": "orders", "dbSubnetGroupName": "db-subnets-" + team,
		"deletionProtection": false, "enabledCloudwatchLogsExports": []any{"postgresql", "upgrade"},
		"endpoint": address + ":5432", "engine": "postgres", "engineVersion": version, "engineVersionActual": version,
		"hostedZoneId": "Z2R2ITUGPM61AM", "iamDatabaseAuthenticationEnabled": false, "id": name, "instanceClass": class,
		"iops": int64(3000), "kmsKeyId": "arn:aws:kms:us-east-1:123456789012:key/8f3c0d2e-1a4b-4c5d-9e6f-" + fmt.Sprintf("%012d", i%20),
		"latestRestorableTime": stamp(created + 600), "maintenanceWindow": "mon:00:00-mon:03:00",
		"maxAllocatedStorage": int64(0), "monitoringInterval": int64(0), "multiAz": i%4 == 0, "networkType": "IPV4",
		"parameterGroupName": "default.postgres" + version[:2], "performanceInsightsEnabled": false, "performanceInsightsRetentionPeriod": int64(0),
		"port": int64(5432), "publiclyAccessible": false, "replicas": []any{}, "resourceId": fmt.Sprintf("db-%026X", uint64(i)*0x9e3779b97f4a7c15),
		"skipFinalSnapshot": true, "status": "available", "storageEncrypted": true, "storageThroughput": int64(125), "storageType": "gp3",
		"tags": tags, "tagsAll": tagsAll, "username": "orders_admin",
		"vpcSecurityGroupIds": []any{fmt.Sprintf("sg-0%016x", i%20*0x1f2e3d4c5b6a)},
		"listenerEndpoint":    []any{},
		"masterUserSecret":    []any{},
	}
	cond := func(typ, reason string, at int) map[string]any {
		return map[string]any{"type": typ, "status": "True", "reason": reason, "lastTransitionTime": stamp(at)}
	}
	status := map[string]any{
		"atProvider": atProvider,
		"conditions": []any{cond("Ready", "Available", created+14), cond("Synced", "ReconcileSuccess", created+1), cond("LastAsyncOperation", "Success", created+14)},
	}
	paramFields := map[string]any{".": map[string]any{}}
	for k := range params {
		paramFields["f:"+k] = map[string]any{}
	}
	atFields := map[string]any{".": map[string]any{}}
	for k := range atProvider {
		atFields["f:"+k] = map[string]any{}
	}
	meta["managedFields"] = []any{
		managedEntry("apiextensions.crossplane.io/composed/"+fmt.Sprintf("%x", i%50*0x2545f491), "Apply", "rds.aws.upbound.io/v1beta1", stamp(created), "", map[string]any{
			"f:metadata": map[string]any{
				"f:annotations":     fieldSet("f:crossplane.io/composition-resource-name", "f:crossplane.io/external-name"),
				"f:labels":          fieldSet("f:crossplane.io/claim-name", "f:crossplane.io/claim-namespace", "f:crossplane.io/composite"),
				"f:ownerReferences": fieldSet(`k:{"uid":"` + owner + `"}`),
			},
			"f:spec": map[string]any{"f:deletionPolicy": map[string]any{}, "f:forProvider": paramFields, "f:providerConfigRef": fieldSet("f:name"),
				"f:writeConnectionSecretToRef": fieldSet("f:name", "f:namespace")},
		}),
		managedEntry("provider-aws-rds", "Update", "rds.aws.upbound.io/v1beta1", stamp(created+1), "", map[string]any{
			"f:metadata": map[string]any{
				"f:annotations": fieldSet("f:crossplane.io/external-create-pending", "f:crossplane.io/external-create-succeeded", "f:upjet.crossplane.io/provider-meta"),
				"f:finalizers":  fieldSet(".", `v:"managedresource.crossplane.io/finalizer"`),
			},
		}),
		managedEntry("provider-aws-rds", "Update", "rds.aws.upbound.io/v1beta1", stamp(created+14), "status", map[string]any{
			"f:status": map[string]any{".": map[string]any{}, "f:atProvider": atFields, "f:conditions": map[string]any{}},
		}),
	}
	return map[string]any{"apiVersion": "rds.aws.upbound.io/v1beta1", "kind": "Instance", "metadata": meta, "spec": spec, "status": status}
}
