package dropinbench

import (
	"encoding/json"

	"github.com/plyproject/ply/test/internal/benchcase"
	"github.com/plyproject/ply/test/ssa"
)

type obj = map[string]any

// Served returns in's live Deployment as kubectl apply reads it from the API server after recorded was applied with
// kubectl apply and the Deployment controller has rolled it out: the JSON of the decoded object (keys in order, as
// kubectl encodes the object it got), holding besides recorded's fields
//   - metadata the server sets: uid, resourceVersion, generation, creationTimestamp, the annotations
//     deployment.kubernetes.io/revision and kubectl.kubernetes.io/last-applied-configuration (recorded), and
//     managedFields: kubectl-client-side-apply owning recorded's fields and the defaults below, kube-controller-manager
//     owning the revision annotation and status (subresource status);
//   - the defaults the API server (k8s.io/kubernetes v1.36, pkg/apis/apps/v1 and pkg/apis/core/v1 SetDefaults_*) gives
//     an apps/v1 Deployment: spec.strategy (RollingUpdate, 25% surge and unavailable), revisionHistoryLimit 10,
//     progressDeadlineSeconds 600; the pod spec's dnsPolicy ClusterFirst, restartPolicy Always, schedulerName
//     default-scheduler, securityContext {}, terminationGracePeriodSeconds 30; each container's imagePullPolicy
//     IfNotPresent (a tag other than latest), terminationMessagePath /dev/termination-log, terminationMessagePolicy
//     File;
//   - the status the controller writes: replica counts and two conditions with their times and messages.
//
// Unlike in.Live, its spec is not recorded's text: the reader cannot share it with recorded's.
func Served(in benchcase.Input) ([]byte, error) {
	var live obj
	if err := json.Unmarshal(in.Live, &live); err != nil {
		return nil, err
	}
	spec := live["spec"].(obj)
	addDefaults(spec)
	md := live["metadata"].(obj)
	md["annotations"] = obj{
		"deployment.kubernetes.io/revision":                "4",
		"kubectl.kubernetes.io/last-applied-configuration": string(in.Recorded) + "\n",
	}
	applied, err := ownedBy(obj{"apiVersion": live["apiVersion"], "kind": live["kind"], "spec": spec,
		"metadata": obj{"annotations": obj{"kubectl.kubernetes.io/last-applied-configuration": ""}, "labels": md["labels"]}})
	if err != nil {
		return nil, err
	}
	status := served(live["status"].(obj))
	controlled, err := ownedBy(obj{"apiVersion": live["apiVersion"], "kind": live["kind"], "status": status,
		"metadata": obj{"annotations": obj{"deployment.kubernetes.io/revision": ""}}})
	if err != nil {
		return nil, err
	}
	md["managedFields"] = []any{
		obj{"manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": "apps/v1",
			"time": "2026-01-02T03:04:05Z", "fieldsType": "FieldsV1", "fieldsV1": applied},
		obj{"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "apps/v1",
			"time": "2026-01-02T03:04:35Z", "fieldsType": "FieldsV1", "fieldsV1": controlled, "subresource": "status"},
	}
	return json.Marshal(live)
}

// addDefaults sets in spec (a Deployment's) the fields the API server defaults (see Served).
func addDefaults(spec obj) {
	spec["strategy"] = obj{"type": "RollingUpdate", "rollingUpdate": obj{"maxSurge": "25%", "maxUnavailable": "25%"}}
	spec["revisionHistoryLimit"] = 10
	spec["progressDeadlineSeconds"] = 600
	pod := spec["template"].(obj)["spec"].(obj)
	pod["dnsPolicy"] = "ClusterFirst"
	pod["restartPolicy"] = "Always"
	pod["schedulerName"] = "default-scheduler"
	pod["securityContext"] = obj{}
	pod["terminationGracePeriodSeconds"] = 30
	for _, c := range pod["containers"].([]any) {
		c := c.(obj)
		c["imagePullPolicy"] = "IfNotPresent"
		c["terminationMessagePath"] = "/dev/termination-log"
		c["terminationMessagePolicy"] = "File"
	}
}

// served returns status (benchcase's) with the times and messages the Deployment controller writes into its
// conditions.
func served(status obj) obj {
	for _, c := range status["conditions"].([]any) {
		c := c.(obj)
		c["lastTransitionTime"] = "2026-01-02T03:04:35Z"
		c["lastUpdateTime"] = "2026-01-02T03:04:35Z"
		c["message"] = conditionMessages[c["type"].(string)]
	}
	return status
}

// conditionMessages are the messages of the Deployment controller's conditions, by type.
var conditionMessages = map[string]string{
	"Available":   "Deployment has minimum availability.",
	"Progressing": `ReplicaSet "web-7c5b9d6f8d" has successfully progressed.`,
}

// ownedBy returns the fields of o (a Deployment) as a managedFields entry's fieldsV1, without apiVersion and kind.
func ownedBy(o obj) (obj, error) {
	tc, err := ssa.TypeConverter()
	if err != nil {
		return nil, err
	}
	doc, err := json.Marshal(o)
	if err != nil {
		return nil, err
	}
	set, err := ssa.Ownership(tc, doc)
	if err != nil {
		return nil, err
	}
	var fields obj
	if err := json.Unmarshal(set, &fields); err != nil {
		return nil, err
	}
	delete(fields, "f:apiVersion")
	delete(fields, "f:kind")
	return fields, nil
}
