import re,sys,statistics as st
for f in sys.argv[1:]:
    items=[]; cur=[]
    for line in open(f):
        m=re.match(r"PROBE-WALK value (\w+) took ([\d.]+)",line)
        if m: cur.append(float(m.group(2))); continue
        if line.startswith("PROBE-ITEM"):
            if cur: items.append(cur)
            cur=[]
    within=[st.pstdev(c)/st.mean(c) for c in items if len(c)>1 and st.mean(c)>0]
    means=[st.mean(c) for c in items]
    print(f, "items", len(items), "walks/item", [len(c) for c in items])
    print(" within-item CV: median %.2f mean %.2f max %.2f" % (st.median(within), st.mean(within), max(within)))
    print(" between-item CV of means: %.2f" % (st.pstdev(means)/st.mean(means)))
    print(" mean walk s per item:", " ".join("%.3f"%m for m in means))
    # variance of single-walk estimator vs 4-walk: total var of item glue est
    tot=sum(means)
    v1=sum(st.pvariance(c) for c in items); 
    print(" sum of walk means %.2f; sd of sum if 1 walk/item %.2f (%.1f%%), if 4: %.2f" % (tot, v1**0.5, 100*v1**0.5/tot, (v1/4)**0.5))
