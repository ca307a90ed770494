// Package metrics serves a controller program's Prometheus metrics with
// github.com/prometheus/client_golang: it implements the small hook
// interfaces of the packages below it (client.Metrics,
// informer.Metrics and reflector.Metrics, workqueue.Metrics,
// controller.Metrics, webhook.Metrics) with client_golang collectors,
// and reads what controllers, the leader election, the sharding member
// and the event recorder know when it is scraped.
//
// Package manager makes one per Manager and serves it on
// Options.MetricsAddr; a program without a manager makes its own:
//
//	m := metrics.New()
//	c, err := client.New(client.Config{..., Metrics: m.Client()})
//	factory := informer.NewFactory(c, informer.FactoryOptions{Metrics: m.Informers()})
//	ctl := controller.New("widgets", widgets, r, controller.Options{
//		Metrics: m.Controllers(),
//		Queue:   workqueue.Options{Metrics: m.Queue("widgets")},
//	})
//	m.AddController(ctl)
//	http.Handle("/metrics", m.Handler())
//
// # Series
//
// Where controller-runtime or client-go has a series for a measurement,
// the series has its name, labels and buckets, so that dashboards and
// alerts written for controller-runtime operators work unchanged:
//
//	controller_runtime_reconcile_total{controller,result}   success, error, requeue, requeue_after
//	controller_runtime_reconcile_errors_total{controller}
//	controller_runtime_reconcile_panics_total{controller}
//	controller_runtime_terminal_reconcile_errors_total{controller}  always 0: kubewire has no terminal errors
//	controller_runtime_reconcile_time_seconds{controller}   histogram
//	controller_runtime_max_concurrent_reconciles{controller}
//	controller_runtime_active_workers{controller}
//	workqueue_depth{name,controller,priority}               priority is ""
//	workqueue_adds_total{name,controller}
//	workqueue_queue_duration_seconds{name,controller}        histogram
//	workqueue_work_duration_seconds{name,controller}         histogram
//	workqueue_unfinished_work_seconds{name,controller}
//	workqueue_longest_running_processor_seconds{name,controller}
//	workqueue_retries_total{name,controller}
//	rest_client_requests_total{code,method,host}             code "<error>" when no answer came
//	rest_client_request_duration_seconds{verb,host}          histogram; verb is the HTTP method
//	leader_election_master_status{name}                      1 while leading the Lease name
//	controller_runtime_webhook_requests_total{webhook,code}   webhook is the path; 200 and 500 exist at 0
//	controller_runtime_webhook_latency_seconds{webhook,code}  histogram
//	controller_runtime_webhook_requests_in_flight{webhook}
//	certwatcher_read_certificate_total                       reads of the webhook server's certificate files
//	certwatcher_read_certificate_errors_total                those that failed (the previous certificate serves on)
//	go_*, process_*                                          the Go runtime and the process
//
// A client reports its requests to one Metrics (its Config.Metrics, or
// the first Client.Inherit). A second registry serving the same client
// (two managers sharing one client) serves those series through
// ServeClientOf, so both show every request, each counted once; a client
// whose Config.Metrics is another library's is not in the rest_client
// series here.
//
// kubewire's own, for what neither measures:
//
//	kubewire_informer_objects{resource,namespace,label_selector,field_selector}
//	kubewire_informer_synced{...}                    1 once the cache held a full state
//	kubewire_informer_failing{...}                   1 during a persistent failure (a refused list or watch)
//	kubewire_informer_resource_version_age_seconds{...}  since the server last moved the cache on
//	                                                 (a list, an event or a bookmark)
//	kubewire_informer_lists_total{...,reason}        full-state reads; reason other than "initial": relists
//	kubewire_informer_list_duration_seconds{...}     histogram
//	kubewire_informer_watch_events_total{...,type}   ADDED, MODIFIED, DELETED, BOOKMARK
//	kubewire_informer_watch_restarts_total{...}      watches that ended and were resumed or replaced
//	kubewire_sharding_slots{ring,state}              assigned, claimed, acting
//	kubewire_sharding_members{ring}                  live members the ring counts
//	kubewire_sharding_joined{ring}                   1 while this member's Lease is renewed in time
//	kubewire_events_total{component,result}          created, aggregated, series_updated, limited, invalid, failed
//	kubewire_events_dropped_total{component}         Eventf calls dropped (queue full, or stopped)
//
// The webhook series are those of a webhook server given to a manager
// (or made with webhook.Options.Metrics set to Webhooks): each review
// of a path served, by the HTTP status answered (a denial is a 200, a
// body that is not a review a 400), and its reads of the certificate
// files (at the start, at every poll, on ReloadCertificates): a rate of
// certwatcher_read_certificate_errors_total above zero is a rotation
// that keeps failing, before the certificate in use expires. A program
// without webhooks shows none of them.
//
// The informer labels are the resource as kubectl names it
// ("widgets.operator.kubewire.dev", "configmaps") and the informer's
// scope ("" for all namespaces, no selector).
//
// # Histograms
//
// A work queue's workers record an add, a queue latency and a work
// duration for every item, from as many goroutines as there are
// workers. client_golang's histogram keeps each observation on a few
// shared atomics (a count that picks the hot half, the sum, the
// bucket) and a sync.Map for the native buckets, so that on two cores
// the observations of 64 workers cost more than the queue itself. The
// work queue series are therefore this package's own: counters and
// histograms sharded over a few cache lines per core (a goroutine picks
// its shard from its stack's address, and another one when that shard
// is busy), each shard a mutex that is seldom contended, plain counts,
// the native buckets of a window of keys in an array. The shards are
// summed when scraped, each read whole under its lock, so a scrape
// never shows a count that disagrees with the buckets.
//
// They expose exactly what client_golang's counter and histogram with
// the same options expose for the same observations (classic buckets,
// native schema and zero bucket, spans and deltas, the schema halved
// when more than 100 native buckets are populated, the reset an hour
// after the last one, created timestamps): the tests feed both the
// same observations and compare the scraped protobufs. One difference
// remains: the sum is the shards' partial sums added, which can differ
// in its last bits from one running sum (client_golang's own sum
// depends likewise on the order concurrent observations land in).
//
// # Concurrency
//
// A Metrics is safe for concurrent use. It holds no global state: each
// has its own prometheus.Registry (Registry), to which a program may add
// its own collectors.
package metrics
